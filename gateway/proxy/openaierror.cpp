#include "openaierror.h"

namespace switchyard::proxy {

namespace {

// The gateway's convention for clients that branch on the type rather than the status.
QByteArrayView typeForStatus(int status)
{
    if (status == 401 || status == 403)
        return "authentication_error";
    if (status == 429)
        return "rate_limit_error";
    if (status >= 500)
        return "server_error";
    return "invalid_request_error";
}

} // namespace

QByteArray openAiErrorBody(int status, const QString &message, const QByteArray &code, const QByteArray &param,
                           const QByteArray &type)
{
    return openai::errorBody(message, type.isEmpty() ? typeForStatus(status) : QByteArrayView(type), code, param);
}

} // namespace switchyard::proxy
