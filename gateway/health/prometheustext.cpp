#include "prometheustext.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace switchyard::health {

QByteArray MetricSample::label(QByteArrayView key) const
{
    for (const auto &[k, v] : labels) {
        if (k == key)
            return v;
    }
    return {};
}

std::optional<double> ParsedMetrics::sum(QByteArrayView name) const
{
    std::optional<double> total;
    for (const MetricSample &s : samples) {
        if (s.name == name)
            total = total.value_or(0) + s.value;
    }
    return total;
}

std::optional<double> ParsedMetrics::sumWhere(QByteArrayView name, QByteArrayView key, QByteArrayView value) const
{
    std::optional<double> total;
    for (const MetricSample &s : samples) {
        if (s.name == name && s.label(key) == value)
            total = total.value_or(0) + s.value;
    }
    return total;
}

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

std::optional<double> parseValue(QByteArrayView v)
{
    if (v == "+Inf" || v == "Inf")
        return HUGE_VAL;
    if (v == "-Inf")
        return -HUGE_VAL;
    if (v == "NaN")
        return std::nan("");
    if (v.isEmpty() || v.size() > 64)
        return std::nullopt;
    char buf[65];
    std::memcpy(buf, v.data(), size_t(v.size()));
    buf[v.size()] = 0;
    char *end = nullptr;
    const double d = std::strtod(buf, &end);
    if (end != buf + v.size())
        return std::nullopt;
    return d;
}

std::optional<MetricSample> parseLine(QByteArrayView line)
{
    MetricSample s;
    qsizetype i = 0;
    if (i >= line.size() || !isNameStart(line[i]))
        return std::nullopt;
    while (i < line.size() && isNameChar(line[i]))
        ++i;
    s.name = line.first(i).toByteArray();
    if (i < line.size() && line[i] == '{') {
        ++i;
        for (;;) {
            while (i < line.size() && (line[i] == ' ' || line[i] == ','))
                ++i;
            if (i < line.size() && line[i] == '}') {
                ++i;
                break;
            }
            const qsizetype keyStart = i;
            while (i < line.size() && isNameChar(line[i]))
                ++i;
            if (i == keyStart || i >= line.size() || line[i] != '=')
                return std::nullopt;
            const QByteArray key = line.sliced(keyStart, i - keyStart).toByteArray();
            ++i;
            if (i >= line.size() || line[i] != '"')
                return std::nullopt;
            ++i;
            QByteArray value;
            bool closed = false;
            while (i < line.size()) {
                const char c = line[i++];
                if (c == '"') {
                    closed = true;
                    break;
                }
                if (c == '\\' && i < line.size()) {
                    const char e = line[i++];
                    value.append(e == 'n' ? '\n' : e);
                } else {
                    value.append(c);
                }
            }
            if (!closed)
                return std::nullopt;
            s.labels.append({key, value});
        }
    }
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        ++i;
    qsizetype end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t')
        ++end;
    const auto v = parseValue(line.sliced(i, end - i)); // an optional timestamp may follow
    if (!v)
        return std::nullopt;
    s.value = *v;
    return s;
}

} // namespace

ParsedMetrics parsePrometheusText(QByteArrayView text, int maxSamples)
{
    ParsedMetrics out;
    qsizetype pos = 0;
    while (pos < text.size() && out.samples.size() < maxSamples) {
        qsizetype end = text.indexOf('\n', pos);
        if (end < 0)
            end = text.size();
        QByteArrayView line = text.sliced(pos, end - pos).trimmed();
        pos = end + 1;
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        if (auto s = parseLine(line))
            out.samples.append(std::move(*s));
        else
            ++out.malformedLines;
    }
    return out;
}

} // namespace switchyard::health
