#include "secretmask.h"

#include "jsontextindex.h"
#include "link/maskedsecrets.h"

#include <algorithm>
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
