#pragma once

// One thing wrong with a config document, and how a problem names the place it was found. The paths are
// what the config editor parses back to mark the offending value, so every part of the loader files its
// problems through the functions here.

#include <QList>
#include <QString>
#include <cstddef>

namespace switchyard::config {

// One thing wrong with a config document. A JSON syntax error carries line/column (1-based, column in
// characters); a schema problem carries the path of the offending value, like
// "providers.vllm-server1.keys[0].weight" (names that are not plain words are quoted: providers["a.b"]).
struct ConfigProblem
{
    QString path;
    int line = 0;
    int column = 0;
    QString message;

    // "line 3, column 14: <message>" for a syntax error, "<path>: <message>" otherwise.
    QString toString() const;
    bool operator==(const ConfigProblem &) const = default;
};
using ConfigProblems = QList<ConfigProblem>;

// How a problem names a member: "parent.name", or parent["odd name"] (quoted as in JSON) when the name
// would make the path ambiguous (dots, spaces, …). The config editor parses these paths back.
QString problemPath(const QString &parent, const QString &name);

// How a problem names an array element: "parent[3]".
QString problemIndexPath(const QString &parent, std::size_t index);

// Text as a JSON string literal ("a \"b\""): how problems quote a name or a value the operator wrote,
// so that what is quoted can be found in the file as it stands there.
QString jsonQuoted(const QString &text);

} // namespace switchyard::config
