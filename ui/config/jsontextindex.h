#pragma once

// Where every value of a JSON text is, addressed by the config loader's paths
// ("providers.vllm-server1.keys[0].weight", providers["my.provider"]): the editor turns a problem's path
// into a place in the text (to underline it and jump to it), and the form view reads its values from the
// text and writes its edits back into it (see jsonedit.h) without reformatting what it did not touch.
//
// The scanner is tolerant: on a syntax error it stops and keeps what it had read, so the editor still knows
// where things are above the mistake. It does not decide whether a config is valid: config::parseConfig
// does, and the editor shows its verdict. Positions are QString offsets (UTF-16 units) into the scanned
// text, which are also QTextDocument positions for a plain text with '\n' line breaks.

#include <QList>
#include <QString>
#include <QStringView>
#include <optional>
#include <vector>

namespace switchyard::ui {

// One step of a loader path: a member name or an array index.
struct JsonPathSegment
{
    QString name;
    int index = -1; // >= 0: an array index, name unused

    bool isIndex() const { return index >= 0; }
    bool operator==(const JsonPathSegment &) const = default;
};
using JsonPath = QList<JsonPathSegment>;

// "a.b[2]", a["x.y"]: the loader's path syntax. nullopt when the text is not such a path (e.g. a file name).
std::optional<JsonPath> parseJsonPath(QStringView path);
// The inverse, quoting names that are not plain words exactly as the loader does.
QString formatJsonPath(const JsonPath &path);

class JsonTextIndex final
{
public:
    enum class Kind { Object, Array, String, Number, Bool, Null };

    struct Node
    {
        Kind kind = Kind::Null;
        int start = 0; // the value: [start, end)
        int end = 0;
        int keyStart = -1; // the member name with its quotes, or -1 (array element, the root)
        int keyEnd = -1;
        QString key; // decoded member name
        int parent = -1;
        std::vector<int> children; // text order
        bool closed = true;        // an object or array whose closing bracket was read
        QString string;            // decoded, for strings
        double number = 0;
        bool boolean = false;
    };

    // Scans text. Deeper than maxDepth levels is treated as a syntax error.
    static JsonTextIndex build(QStringView text, int maxDepth = 128);

    // True when the whole text is one JSON value (and nothing else but whitespace).
    bool isComplete() const { return m_errorOffset < 0 && !m_nodes.empty(); }
    int errorOffset() const { return m_errorOffset; } // -1 when complete
    QString errorMessage() const { return m_error; }

    bool isEmpty() const { return m_nodes.empty(); }
    int root() const { return m_nodes.empty() ? -1 : 0; }
    const Node &node(int i) const { return m_nodes[size_t(i)]; }
    int size() const { return int(m_nodes.size()); }

    // A member of an object by name. A repeated name gives the last one: the one JSON readers keep.
    int member(int object, QStringView name) const;
    int element(int array, int index) const;
    // The node at path, or -1.
    int find(const JsonPath &path) const;
    int find(QStringView path) const;
    // The deepest node on the way to path (the root when not even the first step exists); -1 if empty.
    // matched: how many segments were found.
    int findNearest(const JsonPath &path, int *matched = nullptr) const;
    JsonPath pathOf(int node) const;

    // Convenience for the form: a member's string / number / bool value if it has that kind.
    std::optional<QString> stringAt(int object, QStringView name) const;
    std::optional<double> numberAt(int object, QStringView name) const;
    std::optional<bool> boolAt(int object, QStringView name) const;

private:
    std::vector<Node> m_nodes;
    int m_errorOffset = -1;
    QString m_error;

    friend class JsonScanner;
};

// The JSON text of a string, quoted and escaped.
QString jsonQuote(QStringView text);
// A number as JSON writes it: whole numbers without a fraction, others in their shortest exact form.
QString jsonNumber(double value);

} // namespace switchyard::ui
