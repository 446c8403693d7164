#pragma once

// Reading the members of a parsed JSON object by name and kind, filing a problem (with its path) for each
// one that is missing, mistyped or out of range: the words the config schema (configreader.cpp) is written
// in. Conventions (Go's encoding/json, which Bifrost uses): an absent member and a JSON null are the same
// "not set"; a member of the wrong type is an error.

#include "config/configloader.h"
#include "config/configproblem.h"
#include "config/strictjson.h"

#include <QString>
#include <QStringList>
#include <cstddef>
#include <functional>
#include <optional>

namespace switchyard::config {

class MemberReader
{
    Q_DISABLE_COPY_MOVE(MemberReader)

public:
    enum class Kind { String, Boolean, Number, Object, Array };

protected:
    // Problems are appended to `problems`; "env.NAME" secrets are looked up in `env`. Both must outlive
    // the reader.
    MemberReader(const EnvLookup &env, ConfigProblems &problems) : m_env(env), m_problems(problems) {}
    ~MemberReader() = default;

    // The paths problems are filed under (configproblem.h); the schema names members as C strings.
    static QString memberPath(const QString &parent, const QString &name);
    static QString memberPath(const QString &parent, const char *name);
    static QString indexPath(const QString &parent, std::size_t index);

    // "a number", "an object", …: what was found, for a message.
    static QString typeName(const Json &v);

    // The member, or nullptr when it is absent or null.
    static const Json *member(const Json &obj, const char *key);

    void fail(const QString &path, const QString &message);
    void failType(const QString &path, Kind kind, const Json &v);
    bool hasProblemAt(const QString &path) const;

    // The member if present and of the right kind; otherwise nullptr, with a problem recorded when it is
    // required-but-absent or present-but-mistyped.
    const Json *get(const Json &obj, const QString &objPath, const char *key, Kind kind,
                    bool required = false, const QString &requiredHint = {});
    std::optional<QString> string(const Json &obj, const QString &objPath, const char *key,
                                  bool required = false);
    std::optional<bool> boolean(const Json &obj, const QString &objPath, const char *key);

    // A whole number within [min, max]; a fraction or anything out of range is a problem.
    std::optional<qint64> checkInteger(const Json &v, const QString &path, qint64 min, qint64 max);
    std::optional<qint64> integer(const Json &obj, const QString &objPath, const char *key, qint64 min,
                                  qint64 max);

    // Stores an integer member into `target` when present and valid; leaves the default otherwise.
    template <typename T>
    void readInt(const Json &obj, const QString &objPath, const char *key, qint64 min, qint64 max, T &target)
    {
        if (const auto v = integer(obj, objPath, key, min, max))
            target = T(*v);
    }

    // Calls `use` with each element of `array` that is a string, and the element's path, in order; every
    // other element is a problem.
    void forEachString(const Json &array, const QString &arrayPath,
                       const std::function<void(const QString &path, const QString &text)> &use);

    // A retry backoff: milliseconds as a whole number, or a Go duration string ("500ms", "2s").
    std::optional<qint64> durationMs(const Json &obj, const QString &objPath, const char *key);

    // A literal secret, or "env.NAME" read from the environment. Bifrost turns an unset variable into an
    // empty key silently; here it is an error, because an empty key fails much later and far less clearly.
    std::optional<QString> resolveSecret(const QString &text, const QString &path);

    // Switchyard's own schema, so an unknown field is a mistake (most likely a typo), not something to
    // skip: each one is a problem, with a did-you-mean hint when one of `known` is close.
    void rejectUnknownFields(const Json &obj, const QString &path, const QStringList &known);

private:
    const EnvLookup &m_env;
    ConfigProblems &m_problems;
};

} // namespace switchyard::config
