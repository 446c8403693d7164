#include "settingsdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

SettingsDialog::SettingsDialog(i18n::Language running, QWidget *parent)
    : QDialog(parent), m_running(running), m_language(new QComboBox(this)), m_restartNote(new QLabel(this))
{
    setObjectName(u"settingsDialog"_s);
    setWindowTitle(tr("Settings"));

    // The system entry names what the system is set to, in that language, so the choice is informed.
    m_language->setObjectName(u"languageCombo"_s);
    m_language->addItem(systemEntryText(QLocale::system()), int(i18n::Language::System));
    m_language->addItem(i18n::nativeName(i18n::Language::English), int(i18n::Language::English));
    m_language->addItem(i18n::nativeName(i18n::Language::ChineseSimplified),
                        int(i18n::Language::ChineseSimplified));
    setLanguage(i18n::languageSetting());
    connect(m_language, &QComboBox::currentIndexChanged, this, &SettingsDialog::updateRestartNote);

    m_restartNote->setObjectName(u"restartNote"_s);
    m_restartNote->setWordWrap(true);

    auto *form = new QFormLayout();
    form->addRow(tr("&Language:"), m_language);
    auto *hint = new QLabel(tr("The language applies the next time Switchyard starts."), this);
    hint->setWordWrap(true);
    QPalette p = hint->palette();
    p.setColor(QPalette::WindowText, p.color(QPalette::PlaceholderText));
    hint->setPalette(p);
    form->addRow(QString(), hint);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_restartNote);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(420);
    updateRestartNote();
}

QString SettingsDialog::systemEntryText(const QLocale &system)
{
    QString name = system.nativeLanguageName();
    if (name.isEmpty() || system.language() == QLocale::C)
        name = i18n::nativeName(i18n::Language::English);
    //: The language setting's first entry: follow the system's language, named in parentheses.
    return tr("System (%1)").arg(name);
}

i18n::Language SettingsDialog::language() const
{
    return i18n::Language(m_language->currentData().toInt());
}

void SettingsDialog::setLanguage(i18n::Language language)
{
    m_language->setCurrentIndex(qMax(0, m_language->findData(int(language))));
}

bool SettingsDialog::restartNeeded() const
{
    return language() != m_running;
}

void SettingsDialog::updateRestartNote()
{
    m_restartNote->setText(restartNeeded() ? tr("<b>Restart Switchyard</b> to switch the language.")
                                           : QString());
    m_restartNote->setVisible(restartNeeded());
}

void SettingsDialog::accept()
{
    i18n::setLanguageSetting(language());
    QDialog::accept();
}

} // namespace switchyard::ui
