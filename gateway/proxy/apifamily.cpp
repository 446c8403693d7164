#include "proxy/apifamily.h"

namespace switchyard::proxy {

ApiFamily apiFamilyForPath(QByteArrayView path)
{
    const qsizetype query = path.indexOf('?');
    const QByteArrayView p = query >= 0 ? path.first(query) : path;
    const auto under = [&](QByteArrayView root) {
        return p == root || (p.startsWith(root) && p.size() > root.size() && p[root.size()] == '/');
    };
    if (under("/v1/messages"))
        return ApiFamily::Messages;
    if (under("/v1/responses"))
        return ApiFamily::Responses;
    return ApiFamily::OpenAi;
}

} // namespace switchyard::proxy
