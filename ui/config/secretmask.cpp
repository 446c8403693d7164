#include "secretmask.h"

#include "jsontextindex.h"
#include "link/maskedsecrets.h"

#include <algorithm>
#include <optional>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

using Kind = JsonTextIndex::Kind;

// A string in the text that holds (or stands for) a secret, and the places it may be remembered under:
// the first is where it is looked up, the second where it is looked up when the first is not known (a
// key renamed since: its position, as the API's restore does).
struct SecretAt
{
    int node = -1;
    QString place;
    QString fallback;
};

const QChar Sep(u'\x1f'); // not in any JSON name the config uses

bool isRedisSecret(const QString &url)
{
    return url.contains(u'@') || url == link::MaskedSecret;
}

std::vector<SecretAt> secretsIn(const JsonTextIndex &index)
{
    std::vector<SecretAt> out;
    if (index.isEmpty() || index.node(index.root()).kind != Kind::Object)
        return out;
    auto isString = [&index](int n) { return n >= 0 && index.node(n).kind == Kind::String; };
    auto childrenOf = [&index](int n, Kind kind) {
        return n >= 0 && index.node(n).kind == kind ? index.node(n).children : std::vector<int>{};
    };
    const int root = index.root();
    for (const int provider : childrenOf(index.member(root, u"providers"), Kind::Object)) {
        const QString name = index.node(provider).key;
        const std::vector<int> keys = childrenOf(index.member(provider, u"keys"), Kind::Array);
        for (size_t i = 0; i < keys.size(); ++i) {
            const int value = index.node(keys[i]).kind == Kind::Object ? index.member(keys[i], u"value") : -1;
            if (!isString(value))
                continue;
            const QString byPosition = u"key"_s % Sep % name % Sep % u"#"_s % QString::number(i);
            const auto keyName = index.stringAt(keys[i], u"name");
            const QString byName = keyName ? QString(u"key"_s % Sep % name % Sep % *keyName) : QString();
            out.push_back({value, keyName ? byName : byPosition, keyName ? byPosition : QString()});
        }
        const int network = index.member(provider, u"network_config");
        const int headers = network >= 0 && index.node(network).kind == Kind::Object
                                ? index.member(network, u"extra_headers")
                                : -1;
        for (const int header : childrenOf(headers, Kind::Object)) {
            if (isString(header))
                out.push_back({header, u"header"_s % Sep % name % Sep % index.node(header).key.toLower(), {}});
        }
    }
    const int settings = index.member(root, u"switchyard");
    for (const QString &list : {u"api_keys"_s, u"admin_keys"_s}) {
        const std::vector<int> items =
            childrenOf(settings >= 0 && index.node(settings).kind == Kind::Object ? index.member(settings, list) : -1,
                       Kind::Array);
        for (size_t i = 0; i < items.size(); ++i) {
            if (isString(items[i]))
                out.push_back({items[i], list % Sep % QString::number(i), {}});
        }
    }
    // A Redis URL is a secret when it holds a password (user info), and an address to read when not; the
    // mask stands where one was.
    if (settings >= 0 && index.node(settings).kind == Kind::Object) {
        if (const auto url = index.stringAt(settings, u"redis_url"); url && isRedisSecret(*url))
            out.push_back({index.member(settings, u"redis_url"), u"redis_url"_s, {}});
    }
    return out;
}

// A text that is not complete JSON (a file opened with a syntax error in it): the index stops at the
// mistake, but the secrets after it must not show in clear either. So the text is read a second way, by
// its tokens alone: strings, brackets, colons and commas, whatever their order. A bracket closes
// whatever is open, a string runs to its closing quote or the end of its line (JSON strings hold no line
// break), and each string value's place is named from the member names and array positions around it,
// as secretsIn names them in a complete text.
struct LexicalSecret
{
    int start = 0, end = 0; // the string token, quotes included
    bool closed = true;     // false: the line ended before the closing quote
    QString value;          // decoded
    QString place, fallback;
};

QString decodeJsonString(QStringView token)
{
    QString out;
    for (qsizetype i = 0; i < token.size(); ++i) {
        const QChar c = token[i];
        if (c != u'\\' || i + 1 >= token.size()) {
            out += c;
            continue;
        }
        const QChar e = token[++i];
        switch (e.unicode()) {
        case 'n': out += u'\n'; break;
        case 't': out += u'\t'; break;
        case 'r': out += u'\r'; break;
        case 'b': out += u'\b'; break;
        case 'f': out += u'\f'; break;
        case 'u':
            if (i + 4 < token.size()) {
                bool ok = false;
                const ushort code = token.mid(i + 1, 4).toUShort(&ok, 16);
                if (ok) {
                    out += QChar(code);
                    i += 4;
                    break;
                }
            }
            out += e;
            break;
        default: out += e; // \" \\ \/
        }
    }
    return out;
}

std::vector<LexicalSecret> lexicalSecretsIn(QStringView text)
{
    struct Frame
    {
        bool object = true;
        QString segment;   // this container's member name in its parent, or its index there
        QString pendingKey; // objects: the name read before ':', until the next ','
        int index = 0;      // arrays: the element being read
        std::optional<QString> name; // a provider key's "name", once read
        std::vector<size_t> values;  // secrets in this object that are named after its "name"
    };
    std::vector<Frame> stack;
    std::vector<LexicalSecret> out;

    auto segmentHere = [&stack]() -> QString {
        if (stack.empty())
            return {};
        const Frame &top = stack.back();
        return top.object ? top.pendingKey : QString::number(top.index);
    };
    // The path below the root: member names and array indexes (as text).
    auto pathHere = [&stack, &segmentHere]() {
        QStringList path;
        for (size_t i = 1; i < stack.size(); ++i)
            path << stack[i].segment;
        path << segmentHere();
        return path;
    };
    auto closeFrame = [&stack, &out]() {
        Frame &f = stack.back();
        for (const size_t i : f.values) {
            if (f.name) {
                out[i].fallback = out[i].place;
                out[i].place = u"key"_s % Sep % out[i].place.section(Sep, 1, 1) % Sep % *f.name;
            }
        }
        stack.pop_back();
    };

    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = text[i];
        if (c == u'{' || c == u'[') {
            stack.push_back({c == u'{', segmentHere(), {}, 0, {}, {}});
        } else if (c == u'}' || c == u']') {
            if (!stack.empty())
                closeFrame();
        } else if (c == u',') {
            if (!stack.empty()) {
                stack.back().pendingKey.clear();
                ++stack.back().index;
            }
        } else if (c == u'"') {
            qsizetype j = i + 1;
            while (j < n && text[j] != u'"' && text[j] != u'\n')
                j += text[j] == u'\\' && j + 1 < n && text[j + 1] != u'\n' ? 2 : 1;
            const bool closed = j < n && text[j] == u'"';
            const QString value = decodeJsonString(text.mid(i + 1, j - i - 1));
            const int start = int(i), end = int(closed ? j + 1 : j);
            i = closed ? j : j - 1;
            qsizetype k = i + 1;
            while (k < n && text[k].isSpace())
                ++k;
            if (!stack.empty() && stack.back().object && k < n && text[k] == u':') {
                stack.back().pendingKey = value; // a member name
                continue;
            }
            const QStringList path = pathHere();
            if (path.size() == 5 && path[0] == u"providers" && path[2] == u"keys" && path[4] == u"value") {
                out.push_back({start, end, closed, value, u"key"_s % Sep % path[1] % Sep % u"#"_s % path[3], {}});
                stack.back().values.push_back(out.size() - 1);
            } else if (path.size() == 5 && path[0] == u"providers" && path[2] == u"keys" && path[4] == u"name") {
                stack.back().name = value;
            } else if (path.size() == 5 && path[0] == u"providers" && path[2] == u"network_config"
                       && path[3] == u"extra_headers") {
                out.push_back({start, end, closed, value, u"header"_s % Sep % path[1] % Sep % path[4].toLower(), {}});
            } else if (path.size() == 3 && path[0] == u"switchyard"
                       && (path[1] == u"api_keys" || path[1] == u"admin_keys")) {
                out.push_back({start, end, closed, value, path[1] % Sep % path[2], {}});
            } else if (path.size() == 2 && path[0] == u"switchyard" && path[1] == u"redis_url" && isRedisSecret(value)) {
                out.push_back({start, end, closed, value, u"redis_url"_s, {}});
            }
        }
    }
    while (!stack.empty())
        closeFrame(); // a provider key whose object the text never closed is named all the same
    return out;
}

bool isLiteralSecret(const QString &value)
{
    return !value.isEmpty() && !value.startsWith(u"env."_s) && value != link::MaskedSecret;
}

// Replaces the given ranges (any order, not overlapping) in text.
QString replaced(QString text, std::vector<std::pair<std::pair<int, int>, QString>> edits)
{
    std::sort(edits.begin(), edits.end(), [](const auto &a, const auto &b) { return a.first.first > b.first.first; });
    for (const auto &[range, with] : edits)
        text.replace(range.first, range.second - range.first, with);
    return text;
}

} // namespace

QString SecretMask::mask(const QString &text)
{
    const JsonTextIndex index = JsonTextIndex::build(text);
    const QString masked = jsonQuote(QString(link::MaskedSecret));
    std::vector<std::pair<std::pair<int, int>, QString>> edits;
    if (!index.isComplete()) {
        for (const LexicalSecret &s : lexicalSecretsIn(text)) {
            if (!isLiteralSecret(s.value))
                continue;
            if (s.closed) { // a string cut by the line's end is masked, not remembered: it is no value yet
                const QString written = text.mid(s.start, s.end - s.start);
                m_secrets.insert(s.place, written);
                if (!s.fallback.isEmpty())
                    m_secrets.insert(s.fallback, written);
            }
            edits.push_back({{s.start, s.end}, masked});
        }
        return edits.empty() ? text : replaced(text, std::move(edits));
    }
    for (const SecretAt &s : secretsIn(index)) {
        const JsonTextIndex::Node &n = index.node(s.node);
        if (!isLiteralSecret(n.string))
            continue;
        const QString written = text.mid(n.start, n.end - n.start);
        m_secrets.insert(s.place, written);
        if (!s.fallback.isEmpty())
            m_secrets.insert(s.fallback, written);
        edits.push_back({{n.start, n.end}, masked});
    }
    return edits.empty() ? text : replaced(text, std::move(edits));
}

QString SecretMask::unmask(const QString &text, QStringList *unresolved) const
{
    if (!text.contains(link::MaskedSecret))
        return text;
    const JsonTextIndex index = JsonTextIndex::build(text);
    if (!index.isComplete())
        return text;
    std::vector<std::pair<std::pair<int, int>, QString>> edits;
    for (const SecretAt &s : secretsIn(index)) {
        const JsonTextIndex::Node &n = index.node(s.node);
        if (n.string != link::MaskedSecret)
            continue;
        auto it = m_secrets.constFind(s.place);
        if (it == m_secrets.cend() && !s.fallback.isEmpty())
            it = m_secrets.constFind(s.fallback);
        if (it != m_secrets.cend())
            edits.push_back({{n.start, n.end}, *it});
        else if (unresolved)
            unresolved->append(formatJsonPath(index.pathOf(s.node)));
    }
    return edits.empty() ? text : replaced(text, std::move(edits));
}

} // namespace switchyard::ui
