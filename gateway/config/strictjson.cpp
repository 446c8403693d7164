#include "config/strictjson.h"

#include "config/configlimits.h"

#include <algorithm>
#include <unordered_set>
#include <utility>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

struct TooDeep final
{
};

// 1-based line and column (in characters) of the byte at `offset`.
std::pair<int, int> lineAndColumn(QByteArrayView text, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    int line = 1;
    int column = 1;
    for (qsizetype i = 0; i < offset; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) { // count UTF-8 lead bytes only: columns are characters
            ++column;
        }
    }
    return {line, column};
}

// Where the token that ends at `last` (the offset of its last byte) starts. The parser reports the end of
// an unexpected token, but an operator looks for its beginning: the "models" that follows a missing comma
// starts where the comma should have been. Strings cannot hold an unescaped quote, so the first quote
// going back that no backslash escapes is the opening one.
qsizetype tokenStart(QByteArrayView text, qsizetype last)
{
    if (last <= 0 || last >= text.size())
        return std::clamp<qsizetype>(last, 0, text.size());
    const char end = text[last];
    if (end == '"') {
        for (qsizetype i = last - 1; i >= 0; --i) {
            if (text[i] != '"')
                continue;
            qsizetype slashes = 0;
            while (i - slashes - 1 >= 0 && text[i - slashes - 1] == '\\')
                ++slashes;
            if (slashes % 2 == 0)
                return i;
        }
        return last;
    }
    auto inWord = [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+'
               || c == '.';
    };
    if (!inWord(end))
        return last; // one character: , : [ ] { }
    qsizetype i = last;
    while (i > 0 && inWord(text[i - 1]))
        --i;
    return i;
}

// nlohmann names only the closing bracket after a member or an element, but a comma is what is missing
// far more often: say both.
std::string withCommaExpected(std::string what)
{
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"; expected '}'", "; expected ',' or '}'"},
                                   std::pair<std::string, std::string>{"; expected ']'", "; expected ',' or ']'"}}) {
        if (what.size() >= from.size() && what.compare(what.size() - from.size(), from.size(), from) == 0)
            what.replace(what.size() - from.size(), from.size(), to);
    }
    return what;
}

// Follows the parser event by event, knowing where in the document it is: so a repeated member name is
// reported with its path (JSON parsers keep only one of them, nlohmann and Go the last, so the file would
// not mean what it seems to say), and nesting beyond kMaxDepth stops the parse (TooDeep) before it can
// exhaust the stack.
class ParseTracker final
{
public:
    explicit ParseTracker(ConfigProblems &problems) : m_problems(problems) {}

    bool onEvent(Json::parse_event_t event, const Json &parsed)
    {
        switch (event) {
        case Json::parse_event_t::object_start:
        case Json::parse_event_t::array_start:
            if (m_stack.size() >= kMaxDepth)
                throw TooDeep{};
            m_stack.push_back(Frame{childPath(), event == Json::parse_event_t::array_start});
            break;
        case Json::parse_event_t::object_end:
        case Json::parse_event_t::array_end:
            m_stack.pop_back();
            childDone();
            break;
        case Json::parse_event_t::key: {
            Frame &f = m_stack.back();
            f.key = parsed.get<std::string>();
            if (!f.seen.insert(f.key).second)
                m_problems.append(ConfigProblem{
                    problemPath(f.path, fromStd(f.key)), 0, 0,
                    u"appears more than once in the same object (only the last one would count)"_s});
            break;
        }
        case Json::parse_event_t::value:
            childDone();
            break;
        }
        return true;
    }

    // The path of the value being read now.
    QString childPath() const
    {
        if (m_stack.empty())
            return {};
        const Frame &f = m_stack.back();
        return f.isArray ? problemIndexPath(f.path, f.index) : problemPath(f.path, fromStd(f.key));
    }

private:
    struct Frame
    {
        QString path;
        bool isArray = false;
        std::size_t index = 0;
        std::string key;
        std::unordered_set<std::string> seen;
    };

    void childDone()
    {
        if (!m_stack.empty() && m_stack.back().isArray)
            ++m_stack.back().index;
    }

    ConfigProblems &m_problems;
    std::vector<Frame> m_stack;
};

} // namespace

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

std::optional<Json> parseStrictJson(QByteArrayView text, ConfigProblems &problems)
{
    ParseTracker tracker(problems);
    const Json::parser_callback_t callback = [&tracker](int, Json::parse_event_t event, Json &parsed) {
        return tracker.onEvent(event, parsed);
    };
    try {
        // No comments, as in Go's decoder.
        const char *begin = text.data();
        return Json::parse(begin, begin + text.size(), callback, /*allow_exceptions=*/true,
                           /*ignore_comments=*/false);
    } catch (const Json::parse_error &e) {
        // e.byte is the 1-based position of the last byte read, i.e. the offending one. A whole token that
        // does not belong there (as opposed to text that is no token at all) is placed at its start.
        std::string what = e.what();
        const auto pos = what.find(": ", what.find("parse error"));
        if (pos != std::string::npos)
            what = what.substr(pos + 2);
        qsizetype at = qsizetype(e.byte) - 1;
        if (what.find("- unexpected ") != std::string::npos && what.find("end of input") == std::string::npos)
            at = tokenStart(text, at);
        what = withCommaExpected(std::move(what));
        const auto [line, column] = lineAndColumn(text, at);
        problems.append(ConfigProblem{{}, line, std::max(column, 1), fromStd(what)});
    } catch (const TooDeep &) {
        problems.append(ConfigProblem{tracker.childPath(), 0, 0,
                                      u"nested more than "_s + QString::number(qulonglong(kMaxDepth)) +
                                          u" levels deep"_s});
    } catch (const Json::exception &e) {
        // e.g. out_of_range.406 "number overflow parsing '1e400'": no position available.
        std::string what = e.what();
        const auto pos = what.find("] ");
        if (pos != std::string::npos)
            what = what.substr(pos + 2);
        problems.append(ConfigProblem{{}, 0, 0, u"invalid JSON: "_s + fromStd(what)});
    }
    return std::nullopt;
}

} // namespace switchyard::config
