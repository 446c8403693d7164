#include "soaktally.h"

#include <algorithm>
#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::soak {

QString requestKindName(RequestKind kind)
{
    switch (kind) {
    case RequestKind::Chat: return u"chat"_s;
    case RequestKind::Completion: return u"completion"_s;
    case RequestKind::Embedding: return u"embedding"_s;
    case RequestKind::ChatStream: return u"chat stream"_s;
    case RequestKind::CompletionStream: return u"completion stream"_s;
    }
    return {};
}

int SoakTally::sum(const QMap<QString, int> &m)
{
    int n = 0;
    for (int v : m)
        n += v;
    return n;
}

int SoakTally::total() const
{
    return sum(requests);
}

qint64 percentile(std::vector<qint64> values, double p)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    const auto rank = size_t(std::ceil(p / 100.0 * double(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

} // namespace switchyard::soak
