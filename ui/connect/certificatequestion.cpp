#include "connect/certificatequestion.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

CertificateQuestion::CertificateQuestion(const QString &gatewayUrl, const QString &subject,
                                         const QString &fingerprint, const QString &problem, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(u"certificateQuestion"_s);
    setWindowTitle(tr("Untrusted Certificate"));

    auto *icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(size, size));
    icon->setAlignment(Qt::AlignTop);

    auto *headline = new QLabel(tr("<b>The certificate of %1 is not trusted.</b>").arg(gatewayUrl.toHtmlEscaped()), this);
    headline->setWordWrap(true);
    auto *explain = new QLabel(tr("Compare the fingerprint with the one of the certificate on the gateway's server. "
                                  "Trust it only if they match: Switchyard then remembers this certificate for "
                                  "this gateway and asks again if it ever changes."),
                               this);
    explain->setWordWrap(true);

    auto *subjectLabel = new QLabel(subject.isEmpty() ? tr("(none)") : subject, this);
    subjectLabel->setObjectName(u"subjectLabel"_s);
    subjectLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    subjectLabel->setWordWrap(true);
    auto *fingerprintLabel = new QLabel(formatFingerprint(fingerprint), this);
    fingerprintLabel->setObjectName(u"fingerprintLabel"_s);
    fingerprintLabel->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    fingerprintLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fingerprintLabel->setWordWrap(true);

    auto *form = new QFormLayout();
    form->addRow(tr("Subject:"), subjectLabel);
    form->addRow(tr("SHA-256:"), fingerprintLabel);
    if (!problem.isEmpty()) {
        auto *problemLabel = new QLabel(problem, this);
        problemLabel->setObjectName(u"problemLabel"_s);
        problemLabel->setWordWrap(true);
        form->addRow(tr("Problem:"), problemLabel);
    }

    auto *buttons = new QDialogButtonBox(this);
    auto *trust = buttons->addButton(tr("&Trust This Certificate"), QDialogButtonBox::AcceptRole);
    trust->setObjectName(u"trustButton"_s);
    trust->setAutoDefault(false);
    auto *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setDefault(true); // Enter must not trust by accident
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *text = new QVBoxLayout();
    text->addWidget(headline);
    text->addWidget(explain);
    text->addSpacing(6);
    text->addLayout(form);
    auto *top = new QHBoxLayout();
    top->addWidget(icon, 0, Qt::AlignTop);
    top->addSpacing(8);
    top->addLayout(text, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(560);
    cancel->setFocus();
}

CertificateQuestion::~CertificateQuestion() = default;

QString CertificateQuestion::formatFingerprint(const QString &fingerprint)
{
    QString hex;
    for (const QChar c : fingerprint) {
        if (c.isDigit() || (c.toLower() >= u'a' && c.toLower() <= u'f'))
            hex.append(c.toUpper());
    }
    QStringList pairs;
    for (qsizetype i = 0; i + 1 < hex.size(); i += 2)
        pairs.append(hex.mid(i, 2));
    // Two lines of 16 pairs read better than one of 32.
    if (pairs.size() == 32)
        return pairs.mid(0, 16).join(u':') + u":\n"_s + pairs.mid(16).join(u':');
    return pairs.join(u':');
}

} // namespace switchyard::ui
