#include "language.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::i18n {

namespace {

// Where qt_add_translations puts the compiled .qm files (see i18n/CMakeLists.txt).
const QString EmbeddedDir = u":/i18n"_s;

} // namespace

QString languageKey()
{
    return u"ui/language"_s;
}

QString languageCode(Language language)
{
    switch (language) {
    case Language::English:
        return u"en"_s;
    case Language::ChineseSimplified:
        return u"zh_CN"_s;
    case Language::System:
        break;
    }
    return u"system"_s;
}

Language languageFromCode(const QString &code)
{
    if (code == u"en")
        return Language::English;
    if (code == u"zh_CN")
        return Language::ChineseSimplified;
    return Language::System;
}

QString nativeName(Language language)
{
    switch (language) {
    case Language::English:
        return u"English"_s;
    case Language::ChineseSimplified:
        return u"\u7B80\u4F53\u4E2D\u6587"_s; // 简体中文
    case Language::System:
        break;
    }
    return {};
}

Language languageSetting(const QSettings &settings)
{
    return languageFromCode(settings.value(languageKey()).toString());
}

Language languageSetting()
{
    return languageSetting(QSettings());
}

void setLanguageSetting(Language language)
{
    QSettings settings;
    if (language == Language::System)
        settings.remove(languageKey());
    else
        settings.setValue(languageKey(), languageCode(language));
}

QLocale effectiveLocale(Language language, const QLocale &system)
{
    switch (language) {
    case Language::English:
        return QLocale(QLocale::English, QLocale::UnitedStates);
    case Language::ChineseSimplified:
        return QLocale(QLocale::Chinese, QLocale::SimplifiedChineseScript, QLocale::China);
    case Language::System:
        break;
    }
    return system;
}

QStringList translatedLocales()
{
    QStringList out;
    const QStringList files = QDir(EmbeddedDir).entryList({u"switchyard_*.qm"_s}, QDir::Files, QDir::Name);
    for (const QString &f : files)
        out << f.mid(qsizetype(std::char_traits<char>::length("switchyard_"))).chopped(3);
    return out;
}

Installed installTranslators(QCoreApplication *application, Language language, const QLocale &system)
{
    Installed out;
    out.locale = effectiveLocale(language, system);
    if (language != Language::System)
        QLocale::setDefault(out.locale); // numbers and dates follow the chosen language too

    // QTranslator::load(QLocale, …) walks the locale's UI languages (zh-Hans-CN, zh-CN, …): a system
    // set to zh_CN.UTF-8 finds switchyard_zh_CN.qm. The source strings are English, so English loads nothing.
    auto *own = new QTranslator(application);
    if (own->load(out.locale, u"switchyard"_s, u"_"_s, EmbeddedDir) && application->installTranslator(own))
        out.switchyard = true;
    else
        delete own;
    // Qt's own strings (standard buttons, file dialogs) only where Switchyard is translated too, so a
    // dialog is not half in one language.
    if (out.switchyard) {
        auto *qt = new QTranslator(application);
        if (qt->load(out.locale, u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath)) &&
            application->installTranslator(qt))
            out.qt = true;
        else
            delete qt;
    }
    return out;
}

} // namespace switchyard::i18n
