#pragma once

// The panel's language: Switchyard's own translations (embedded, :/i18n/switchyard_<locale>.qm) and
// Qt's for its standard dialogs, chosen from the system locale unless the user's settings say otherwise.
// Qt Core only, so headless mode (--help) uses it too.

#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;
class QSettings;

namespace switchyard::i18n {

// What the settings say. The stored value is the code ("system", "en", "zh_CN"), so a settings file
// stays readable and a language added later does not renumber the others.
enum class Language { System, English, ChineseSimplified };

// The QSettings key ("ui/language").
QString languageKey();
QString languageCode(Language language);
// Unknown or empty codes are System (a settings file from a newer version must not break start-up).
Language languageFromCode(const QString &code);
// The language's own name, as a language menu shows it ("English", "简体中文"); System is empty.
QString nativeName(Language language);

Language languageSetting(const QSettings &settings);
Language languageSetting(); // the application's QSettings
void setLanguageSetting(Language language);

// The locale the UI uses: the system's for System, else the chosen language's.
QLocale effectiveLocale(Language language, const QLocale &system = QLocale::system());

// Locales Switchyard has a translation for, besides its source language English.
QStringList translatedLocales();

struct Installed
{
    QLocale locale;          // the locale in use (also set as QLocale's default when overridden)
    bool switchyard = false; // Switchyard's translation was loaded
    bool qt = false;         // Qt's own (qtbase_*) was loaded
};

// Loads and installs the translators for the language on the application (call once, before any window
// or --help text exists); they are children of the application. English and locales without a
// translation install nothing. system: what System means (tests pass another).
Installed installTranslators(QCoreApplication *application, Language language,
                             const QLocale &system = QLocale::system());

} // namespace switchyard::i18n
