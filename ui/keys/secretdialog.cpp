#include "keys/secretdialog.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

SecretDialog::SecretDialog(const QString &keyName, const QString &secret, QWidget *parent)
    : QDialog(parent), m_secret(new QLineEdit(secret, this)), m_copy(new QPushButton(tr("&Copy"), this)),
      m_close(new QPushButton(tr("Close"), this))
{
    setObjectName(u"secretDialog"_s);
    setWindowTitle(tr("Secret of %1").arg(keyName));
    setModal(true);

    auto *heading = new QLabel(tr("The key %1 is made. Its clients send this secret as their API key "
                                  "(Authorization: Bearer …):")
                                   .arg(keyName),
                               this);
    heading->setWordWrap(true);
    m_secret->setObjectName(u"secretEdit"_s);
    m_secret->setReadOnly(true);
    m_secret->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_secret->setMinimumWidth(m_secret->fontMetrics().horizontalAdvance(secret) + 24);
    m_secret->setCursorPosition(0);
    m_copy->setObjectName(u"copySecret"_s);
    m_copy->setDefault(true);
    m_close->setObjectName(u"closeSecret"_s);
    m_close->setAutoDefault(false);
    auto *warning = new QLabel(tr("This is the only time the secret is shown. Store it now; the gateway keeps only "
                                  "its hash."),
                               this);
    warning->setObjectName(u"secretWarning"_s);
    warning->setWordWrap(true);
    QFont bold = warning->font();
    bold.setBold(true);
    warning->setFont(bold);

    auto *row = new QHBoxLayout;
    row->addWidget(m_secret, 1);
    row->addWidget(m_copy);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addLayout(row);
    layout->addWidget(warning);
    layout->addLayout(buttons);

    connect(m_copy, &QPushButton::clicked, this, &SecretDialog::copy);
    connect(m_close, &QPushButton::clicked, this, &QDialog::accept);
    m_secret->selectAll();
    m_secret->setFocus();
}

SecretDialog::~SecretDialog() = default;

void SecretDialog::copy()
{
    QGuiApplication::clipboard()->setText(m_secret->text());
    m_copied = true;
    m_copy->setText(tr("Copied"));
}

void SecretDialog::done(int result)
{
    if (!m_copied && !m_asking) {
        m_asking = true; // Escape on the question must not ask again
        QMessageBox box(QMessageBox::Warning, tr("Close without copying?"),
                        tr("Close without copying? The secret cannot be shown again."),
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setObjectName(u"closeWithoutCopying"_s);
        box.setDefaultButton(QMessageBox::No);
        box.button(QMessageBox::Yes)->setText(tr("Close"));
        box.button(QMessageBox::No)->setText(tr("Keep it open"));
        const int answer = box.exec();
        m_asking = false;
        if (answer != QMessageBox::Yes)
            return;
    }
    QDialog::done(result);
}

} // namespace switchyard::ui
