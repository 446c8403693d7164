#pragma once

// What the config editor's test classes share: files in and out, the article's layout of providers, an
// environment for ${VAR} references, and an editor that fails the test if it asks a question or opens a
// file dialog nobody expected.

#include "config/configeditor.h"
#include "config/configloader.h"

#include <QFile>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace switchyard::testing {

using ui::ConfigEditor;
using namespace Qt::Literals::StringLiterals;

inline QString readText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

inline bool writeText(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text.toUtf8()) >= 0;
}

inline QString seedText()
{
    return readText(QStringLiteral(SWITCHYARD_CONFIG_TESTDATA) + u"/seed-bifrost.json"_s);
}

// One provider per (name, url), the layout of the article's config.
inline QString configFor(const QList<QPair<QString, QString>> &providers, const QString &extra = {})
{
    QStringList parts;
    for (const auto &[name, url] : providers) {
        parts << u"    \""_s + name + u"\": {\n"_s + u"      \"keys\": [{\"name\": \""_s + name +
                     u"-key\", \"value\": \"dummy\", \"models\": [\"m1\"], \"weight\": 1}],\n"_s +
                     u"      \"network_config\": {\"base_url\": \""_s + url +
                     u"\", \"default_request_timeout_in_seconds\": 10},\n"_s +
                     u"      \"custom_provider_config\": {\"base_provider_type\": \"openai\"}\n"_s +
                     u"    }"_s;
    }
    return u"{\n  \"providers\": {\n"_s + parts.join(u",\n"_s) + u"\n  }"_s + extra + u"\n}\n"_s;
}

inline config::EnvLookup envWith(const QMap<QString, QString> &vars)
{
    return [vars](const QString &name) -> std::optional<QString> {
        if (!vars.contains(name))
            return std::nullopt;
        return vars.value(name);
    };
}

// The 1-based line of the first occurrence of needle.
inline int lineOf(const QString &text, const QString &needle)
{
    const qsizetype at = text.indexOf(needle);
    return at < 0 ? -1 : int(QStringView(text).first(at).count(u'\n')) + 1;
}

struct PromptLog
{
    QList<ConfigEditor::Reason> reasons;
    ConfigEditor::Choice answer = ConfigEditor::Choice::Cancel;
    ConfigEditor::UnsavedPrompt prompt()
    {
        return [this](ConfigEditor::Reason r, const QString &) {
            reasons << r;
            return answer;
        };
    }
};

// A config editor that answers no question and opens no dialog unless the test says how.
inline std::unique_ptr<ConfigEditor> newConfigEditor(const QString &text = {})
{
    auto e = std::make_unique<ConfigEditor>();
    e->setEnvironment(envWith({{u"S1_KEY"_s, u"s3cret-from-env"_s}}));
    e->setUnsavedPrompt([](ConfigEditor::Reason, const QString &) {
        qWarning("unexpected unsaved-edits question");
        return ConfigEditor::Choice::Cancel;
    });
    e->setFileChooser([](ConfigEditor::FileRole, const QString &) {
        qWarning("unexpected file dialog");
        return QString();
    });
    e->resize(1100, 700);
    if (!text.isNull())
        e->setUntitledText(text, u"test"_s);
    return e;
}

} // namespace switchyard::testing
