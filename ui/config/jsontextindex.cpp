#include "jsontextindex.h"

#include "config/configloader.h"

#include <QLocale>

#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// A character of a plain member name in a problem path (config::problemPath writes the others quoted).
bool isPlainNameChar(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'-' || u == u'_';
}

int hexValue(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= u'0' && u <= u'9')
        return u - u'0';
    if (u >= u'a' && u <= u'f')
        return u - u'a' + 10;
    if (u >= u'A' && u <= u'F')
        return u - u'A' + 10;
    return -1;
}

} // namespace

std::optional<JsonPath> parseJsonPath(QStringView p)
{
    JsonPath out;
    qsizetype i = 0;
    const qsizetype n = p.size();
    if (n == 0)
        return out;
    auto plainName = [&]() -> std::optional<QString> {
        const qsizetype start = i;
        while (i < n && isPlainNameChar(p[i]))
            ++i;
        if (i == start)
            return std::nullopt;
        return p.sliced(start, i - start).toString();
    };
    bool first = true;
    while (i < n) {
        const QChar c = p[i];
        if (c == u'[') {
            ++i;
            if (i < n && p[i] == u'"') {
                ++i;
                QString name;
                bool closed = false;
                while (i < n) {
                    const QChar d = p[i++];
                    if (d == u'"') {
                        closed = true;
                        break;
                    }
                    if (d != u'\\') {
                        name += d;
                        continue;
                    }
                    if (i >= n)
                        return std::nullopt;
                    const QChar e = p[i++];
                    if (e == u'r') {
                        name += u'\r';
                    } else if (e == u'n') {
                        name += u'\n';
                    } else if (e == u'u') {
                        if (i + 4 > n)
                            return std::nullopt;
                        int code = 0;
                        for (int k = 0; k < 4; ++k) {
                            const int h = hexValue(p[i++]);
                            if (h < 0)
                                return std::nullopt;
                            code = code * 16 + h;
                        }
                        name += QChar(char16_t(code));
                    } else {
                        name += e;
                    }
                }
                if (!closed || i >= n || p[i] != u']')
                    return std::nullopt;
                ++i;
                out.append(JsonPathSegment{name, -1});
            } else {
                const qsizetype start = i;
                while (i < n && p[i].unicode() >= u'0' && p[i].unicode() <= u'9')
                    ++i;
                if (i == start || i >= n || p[i] != u']' || i - start > 9)
                    return std::nullopt;
                out.append(JsonPathSegment{{}, p.sliced(start, i - start).toInt()});
                ++i;
            }
        } else if (c == u'.' && !first) {
            ++i;
            const auto name = plainName();
            if (!name)
                return std::nullopt;
            out.append(JsonPathSegment{*name, -1});
        } else if (first) {
            const auto name = plainName();
            if (!name)
                return std::nullopt;
            out.append(JsonPathSegment{*name, -1});
        } else {
            return std::nullopt;
        }
        first = false;
    }
    return out;
}

QString formatJsonPath(const JsonPath &path)
{
    QString out;
    for (const JsonPathSegment &s : path) {
        if (s.isIndex())
            out += u'[' + QString::number(s.index) + u']';
        else
            out = config::problemPath(out, s.name);
    }
    return out;
}

class JsonScanner final
{
public:
    JsonScanner(QStringView text, int maxDepth, JsonTextIndex &out) : m_t(text), m_max(maxDepth), m_out(out)
    {}

    void run()
    {
        skipSpace();
        if (m_pos >= m_t.size()) {
            fail(m_pos, u"the text is empty"_s);
            return;
        }
        if (!value(-1, -1, -1, {}, 0))
            return;
        skipSpace();
        if (m_pos < m_t.size())
            fail(m_pos, u"text after the end of the JSON value"_s);
    }

private:
    using Node = JsonTextIndex::Node;
    using Kind = JsonTextIndex::Kind;

    void fail(qsizetype at, const QString &message)
    {
        if (m_out.m_errorOffset >= 0)
            return;
        m_out.m_errorOffset = int(at);
        m_out.m_error = message;
    }

    void skipSpace()
    {
        while (m_pos < m_t.size()) {
            const char16_t c = m_t[m_pos].unicode();
            if (c != u' ' && c != u'\t' && c != u'\n' && c != u'\r')
                break;
            ++m_pos;
        }
    }

    int addNode(Kind kind, int parent, int keyStart, int keyEnd, QString key)
    {
        Node n;
        n.kind = kind;
        n.start = int(m_pos);
        n.end = int(m_pos);
        n.keyStart = keyStart;
        n.keyEnd = keyEnd;
        n.key = std::move(key);
        n.parent = parent;
        m_out.m_nodes.push_back(std::move(n));
        const int index = int(m_out.m_nodes.size()) - 1;
        if (parent >= 0)
            m_out.m_nodes[size_t(parent)].children.push_back(index);
        return index;
    }

    Node &at(int i) { return m_out.m_nodes[size_t(i)]; }

    // A string starting at m_pos (a '"'); the decoded text, or nullopt after fail().
    std::optional<QString> string()
    {
        const qsizetype n = m_t.size();
        ++m_pos; // the opening quote
        QString out;
        while (true) {
            if (m_pos >= n) {
                fail(m_pos, u"unterminated string"_s);
                return std::nullopt;
            }
            const QChar c = m_t[m_pos];
            if (c == u'"') {
                ++m_pos;
                return out;
            }
            if (c.unicode() < 0x20) {
                fail(m_pos, u"control character in a string"_s);
                return std::nullopt;
            }
            if (c != u'\\') {
                out += c;
                ++m_pos;
                continue;
            }
            if (m_pos + 1 >= n) {
                fail(m_pos, u"unterminated string"_s);
                return std::nullopt;
            }
            const QChar e = m_t[m_pos + 1];
            m_pos += 2;
            switch (e.unicode()) {
            case u'"':
                out += u'"';
                break;
            case u'\\':
                out += u'\\';
                break;
            case u'/':
                out += u'/';
                break;
            case u'b':
                out += u'\b';
                break;
            case u'f':
                out += u'\f';
                break;
            case u'n':
                out += u'\n';
                break;
            case u'r':
                out += u'\r';
                break;
            case u't':
                out += u'\t';
                break;
            case u'u': {
                if (m_pos + 4 > n) {
                    fail(m_pos, u"incomplete \\u escape"_s);
                    return std::nullopt;
                }
                int code = 0;
                for (int k = 0; k < 4; ++k) {
                    const int h = hexValue(m_t[m_pos + k]);
                    if (h < 0) {
                        fail(m_pos + k, u"invalid \\u escape"_s);
                        return std::nullopt;
                    }
                    code = code * 16 + h;
                }
                m_pos += 4;
                out += QChar(char16_t(code)); // surrogate pairs arrive as two escapes, in order
                break;
            }
            default:
                fail(m_pos - 1, u"invalid escape"_s);
                return std::nullopt;
            }
        }
    }

    bool digits()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_t.size() && m_t[m_pos].unicode() >= u'0' && m_t[m_pos].unicode() <= u'9')
            ++m_pos;
        return m_pos > start;
    }

    bool number(int node)
    {
        const qsizetype start = m_pos;
        if (m_t[m_pos] == u'-')
            ++m_pos;
        if (m_pos < m_t.size() && m_t[m_pos] == u'0') {
            ++m_pos;
        } else if (!digits()) {
            fail(m_pos, u"invalid number"_s);
            return false;
        }
        if (m_pos < m_t.size() && m_t[m_pos] == u'.') {
            ++m_pos;
            if (!digits()) {
                fail(m_pos, u"invalid number"_s);
                return false;
            }
        }
        if (m_pos < m_t.size() && (m_t[m_pos] == u'e' || m_t[m_pos] == u'E')) {
            ++m_pos;
            if (m_pos < m_t.size() && (m_t[m_pos] == u'+' || m_t[m_pos] == u'-'))
                ++m_pos;
            if (!digits()) {
                fail(m_pos, u"invalid number"_s);
                return false;
            }
        }
        at(node).number = m_t.sliced(start, m_pos - start).toDouble();
        return true;
    }

    bool literal(QStringView word)
    {
        if (m_t.sliced(m_pos).startsWith(word)) {
            m_pos += word.size();
            return true;
        }
        fail(m_pos, u"invalid literal"_s);
        return false;
    }

    bool value(int parent, int keyStart, int keyEnd, QString key, int depth)
    {
        if (m_pos >= m_t.size()) {
            fail(m_pos, u"a value is missing"_s);
            return false;
        }
        if (depth > m_max) {
            fail(m_pos, u"nested too deep"_s);
            return false;
        }
        const QChar c = m_t[m_pos];
        bool ok = false;
        int node = -1;
        switch (c.unicode()) {
        case u'{':
            node = addNode(Kind::Object, parent, keyStart, keyEnd, std::move(key));
            ok = object(node, depth);
            break;
        case u'[':
            node = addNode(Kind::Array, parent, keyStart, keyEnd, std::move(key));
            ok = array(node, depth);
            break;
        case u'"': {
            node = addNode(Kind::String, parent, keyStart, keyEnd, std::move(key));
            auto s = string();
            ok = bool(s);
            if (s)
                at(node).string = std::move(*s);
            break;
        }
        case u't':
        case u'f':
            node = addNode(Kind::Bool, parent, keyStart, keyEnd, std::move(key));
            at(node).boolean = c == u't';
            ok = literal(c == u't' ? u"true" : u"false");
            break;
        case u'n':
            node = addNode(Kind::Null, parent, keyStart, keyEnd, std::move(key));
            ok = literal(u"null");
            break;
        default:
            if (c == u'-' || (c.unicode() >= u'0' && c.unicode() <= u'9')) {
                node = addNode(Kind::Number, parent, keyStart, keyEnd, std::move(key));
                ok = number(node);
            } else {
                fail(m_pos, u"a value is missing"_s);
            }
        }
        if (node >= 0)
            at(node).end = int(m_pos);
        return ok;
    }

    bool object(int node, int depth)
    {
        ++m_pos; // {
        at(node).closed = false;
        skipSpace();
        if (m_pos < m_t.size() && m_t[m_pos] == u'}') {
            ++m_pos;
            at(node).closed = true;
            return true;
        }
        while (true) {
            skipSpace();
            if (m_pos >= m_t.size() || m_t[m_pos] != u'"') {
                fail(m_pos, u"a member name is missing"_s);
                return false;
            }
            const int keyStart = int(m_pos);
            auto name = string();
            if (!name)
                return false;
            const int keyEnd = int(m_pos);
            skipSpace();
            if (m_pos >= m_t.size() || m_t[m_pos] != u':') {
                fail(m_pos, u"':' is missing"_s);
                return false;
            }
            ++m_pos;
            skipSpace();
            if (!value(node, keyStart, keyEnd, std::move(*name), depth + 1))
                return false;
            skipSpace();
            if (m_pos < m_t.size() && m_t[m_pos] == u',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_t.size() && m_t[m_pos] == u'}') {
                ++m_pos;
                at(node).closed = true;
                return true;
            }
            fail(m_pos, u"',' or '}' is missing"_s);
            return false;
        }
    }

    bool array(int node, int depth)
    {
        ++m_pos; // [
        at(node).closed = false;
        skipSpace();
        if (m_pos < m_t.size() && m_t[m_pos] == u']') {
            ++m_pos;
            at(node).closed = true;
            return true;
        }
        while (true) {
            skipSpace();
            if (!value(node, -1, -1, {}, depth + 1))
                return false;
            skipSpace();
            if (m_pos < m_t.size() && m_t[m_pos] == u',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_t.size() && m_t[m_pos] == u']') {
                ++m_pos;
                at(node).closed = true;
                return true;
            }
            fail(m_pos, u"',' or ']' is missing"_s);
            return false;
        }
    }

    QStringView m_t;
    int m_max;
    JsonTextIndex &m_out;
    qsizetype m_pos = 0;
};

JsonTextIndex JsonTextIndex::build(QStringView text, int maxDepth)
{
    JsonTextIndex index;
    JsonScanner(text, maxDepth, index).run();
    // Containers cut off by an error end where the scan stopped.
    if (index.m_errorOffset >= 0) {
        for (Node &n : index.m_nodes) {
            if (!n.closed)
                n.end = index.m_errorOffset;
        }
    }
    return index;
}

int JsonTextIndex::member(int object, QStringView name) const
{
    if (object < 0 || node(object).kind != Kind::Object)
        return -1;
    const std::vector<int> &c = node(object).children;
    for (auto it = c.rbegin(); it != c.rend(); ++it) {
        if (node(*it).key == name)
            return *it;
    }
    return -1;
}

int JsonTextIndex::element(int array, int index) const
{
    if (array < 0 || node(array).kind != Kind::Array || index < 0 ||
        size_t(index) >= node(array).children.size())
        return -1;
    return node(array).children[size_t(index)];
}

int JsonTextIndex::findNearest(const JsonPath &path, int *matched) const
{
    int at = root();
    int count = 0;
    for (const JsonPathSegment &s : path) {
        if (at < 0)
            break;
        const int next = s.isIndex() ? element(at, s.index) : member(at, s.name);
        if (next < 0)
            break;
        at = next;
        ++count;
    }
    if (matched)
        *matched = count;
    return at;
}

int JsonTextIndex::find(const JsonPath &path) const
{
    int matched = 0;
    const int at = findNearest(path, &matched);
    return matched == path.size() ? at : -1;
}

int JsonTextIndex::find(QStringView path) const
{
    const auto p = parseJsonPath(path);
    return p ? find(*p) : -1;
}

JsonPath JsonTextIndex::pathOf(int i) const
{
    JsonPath out;
    while (i >= 0 && node(i).parent >= 0) {
        const Node &n = node(i);
        const Node &p = node(n.parent);
        if (p.kind == Kind::Array) {
            int index = 0;
            while (p.children[size_t(index)] != i)
                ++index;
            out.prepend(JsonPathSegment{{}, index});
        } else {
            out.prepend(JsonPathSegment{n.key, -1});
        }
        i = n.parent;
    }
    return out;
}

std::optional<QString> JsonTextIndex::stringAt(int object, QStringView name) const
{
    const int m = member(object, name);
    if (m < 0 || node(m).kind != Kind::String)
        return std::nullopt;
    return node(m).string;
}

std::optional<double> JsonTextIndex::numberAt(int object, QStringView name) const
{
    const int m = member(object, name);
    if (m < 0 || node(m).kind != Kind::Number)
        return std::nullopt;
    return node(m).number;
}

std::optional<bool> JsonTextIndex::boolAt(int object, QStringView name) const
{
    const int m = member(object, name);
    if (m < 0 || node(m).kind != Kind::Bool)
        return std::nullopt;
    return node(m).boolean;
}

QString jsonQuote(QStringView text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += u'"';
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        switch (u) {
        case u'"':
            out += u"\\\""_s;
            break;
        case u'\\':
            out += u"\\\\"_s;
            break;
        case u'\n':
            out += u"\\n"_s;
            break;
        case u'\r':
            out += u"\\r"_s;
            break;
        case u'\t':
            out += u"\\t"_s;
            break;
        case u'\b':
            out += u"\\b"_s;
            break;
        case u'\f':
            out += u"\\f"_s;
            break;
        default:
            if (u < 0x20)
                out += u"\\u"_s + QString::number(int(u), 16).rightJustified(4, u'0');
            else
                out += c;
        }
    }
    out += u'"';
    return out;
}

QString jsonNumber(double value)
{
    if (!std::isfinite(value))
        return u"0"_s;
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return QString::number(qint64(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace switchyard::ui
