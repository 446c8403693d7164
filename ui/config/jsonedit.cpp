#include "jsonedit.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

using Kind = JsonTextIndex::Kind;

// The whitespace that starts the line holding pos.
QString lineIndent(QStringView text, int pos)
{
    int start = pos;
    while (start > 0 && text[start - 1] != u'\n')
        --start;
    int end = start;
    while (end < text.size() && (text[end] == u' ' || text[end] == u'\t'))
        ++end;
    return text.sliced(start, end - start).toString();
}

int startOf(const JsonTextIndex::Node &n)
{
    return n.keyStart >= 0 ? n.keyStart : n.start;
}

// A container whose first child sits on a line of its own (rather than right after the bracket).
bool childrenOnOwnLines(const JsonTextIndex &index, QStringView text, int container)
{
    const JsonTextIndex::Node &c = index.node(container);
    if (c.children.empty())
        return false;
    const int first = startOf(index.node(c.children.front()));
    return text.sliced(c.start, first - c.start).contains(u'\n');
}

// The document's indentation step: what the root's members are indented by (2 spaces if unknown).
QString indentUnit(const JsonTextIndex &index, QStringView text)
{
    const int root = index.root();
    if (root >= 0 && childrenOnOwnLines(index, text, root)) {
        const QString indent = lineIndent(text, startOf(index.node(index.node(root).children.front())));
        if (!indent.isEmpty())
            return indent;
    }
    return u"  "_s;
}

// value is written with 2 spaces per level from column 0; its lines after the first move to base, with
// the document's own step per level.
QString reindent(const QString &value, const QString &base, const QString &unit)
{
    if (!value.contains(u'\n'))
        return value;
    const QStringList lines = value.split(u'\n');
    QString out = lines.front();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString &line = lines[i];
        qsizetype spaces = 0;
        while (spaces < line.size() && line[spaces] == u' ')
            ++spaces;
        out += u'\n' + base + unit.repeated(spaces / 2) + QString(spaces % 2, u' ') + line.mid(spaces);
    }
    return out;
}

std::optional<TextChange> insertInto(const JsonTextIndex &index, QStringView text, int container,
                                     const QString &key, const QString &value)
{
    const JsonTextIndex::Node &c = index.node(container);
    if (!c.closed)
        return std::nullopt;
    const bool isObject = c.kind == Kind::Object;
    const QString unit = indentUnit(index, text);
    auto entry = [&](const QString &base) -> QString {
        const QString v = reindent(value, base, unit);
        return isObject ? jsonQuote(key) + u": "_s + v : v;
    };
    if (!c.children.empty()) {
        const JsonTextIndex::Node &last = index.node(c.children.back());
        if (childrenOnOwnLines(index, text, container)) {
            const QString base = lineIndent(text, startOf(index.node(c.children.front())));
            return TextChange{last.end, last.end, u",\n"_s + base + entry(base)};
        }
        const QString base = lineIndent(text, startOf(c));
        return TextChange{last.end, last.end, u", "_s + entry(base)};
    }
    const QString outer = lineIndent(text, startOf(c));
    if (value.contains(u'\n') || (isObject && c.parent < 0)) {
        const QString base = outer + unit;
        return TextChange{c.start + 1, c.end - 1, u"\n"_s + base + entry(base) + u"\n"_s + outer};
    }
    return TextChange{c.start + 1, c.end - 1, entry(outer)};
}

} // namespace

QString jsonStringArray(const QStringList &items)
{
    QStringList quoted;
    for (const QString &s : items)
        quoted << jsonQuote(s);
    return u"["_s + quoted.join(u", "_s) + u"]"_s;
}

std::optional<TextChange> resolveEdit(const JsonTextIndex &index, QStringView text, const JsonEdit &edit)
{
    if (!index.isComplete()) // edits land only in a text that reads as JSON
        return std::nullopt;
    int matched = 0;
    const int at = index.findNearest(edit.path, &matched);
    const bool exists = matched == edit.path.size();

    switch (edit.op) {
    case JsonEdit::Op::Set: {
        if (exists) {
            const JsonTextIndex::Node &n = index.node(at);
            const QString base = lineIndent(text, startOf(n));
            return TextChange{n.start, n.end, reindent(edit.value, base, indentUnit(index, text))};
        }
        if (index.node(at).kind != Kind::Object)
            return std::nullopt;
        // Wrap the value in the objects that are missing on the way, innermost first.
        QString value = edit.value;
        for (qsizetype i = edit.path.size() - 1; i > matched; --i) {
            if (edit.path[i].isIndex())
                return std::nullopt;
            value = u"{"_s + jsonQuote(edit.path[i].name) + u": "_s + value + u"}"_s;
        }
        if (edit.path[matched].isIndex())
            return std::nullopt;
        return insertInto(index, text, at, edit.path[matched].name, value);
    }
    case JsonEdit::Op::Append: {
        if (!exists || index.node(at).kind != Kind::Array)
            return std::nullopt;
        return insertInto(index, text, at, {}, edit.value);
    }
    case JsonEdit::Op::Rename: {
        if (!exists || index.node(at).keyStart < 0)
            return std::nullopt;
        const JsonTextIndex::Node &n = index.node(at);
        return TextChange{n.keyStart, n.keyEnd, jsonQuote(edit.value)};
    }
    case JsonEdit::Op::Remove: {
        if (!exists)
            return TextChange{};
        const JsonTextIndex::Node &n = index.node(at);
        if (n.parent < 0)
            return std::nullopt; // not the whole document
        const JsonTextIndex::Node &p = index.node(n.parent);
        const std::vector<int> &siblings = p.children;
        size_t i = 0;
        while (siblings[i] != at)
            ++i;
        if (i > 0) // from the end of the one before: its comma goes with this one
            return TextChange{index.node(siblings[i - 1]).end, n.end, {}};
        if (siblings.size() > 1) // the first of several: up to the next one
            return TextChange{startOf(n), startOf(index.node(siblings[1])), {}};
        if (!p.closed)
            return std::nullopt;
        return TextChange{p.start + 1, p.end - 1, {}}; // the only one: {} or []
    }
    }
    return std::nullopt;
}

std::optional<QString> applyEdits(QString text, const QList<JsonEdit> &edits)
{
    for (const JsonEdit &e : edits) {
        const JsonTextIndex index = JsonTextIndex::build(text);
        const auto change = resolveEdit(index, text, e);
        if (!change)
            return std::nullopt;
        text.replace(change->start, change->end - change->start, change->text);
    }
    return text;
}

} // namespace switchyard::ui
