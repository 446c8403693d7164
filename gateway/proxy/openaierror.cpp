#include "openaierror.h"

#include <nlohmann/json.hpp>

namespace switchyard::proxy {

namespace {
const char *typeForStatus(int status)
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
    nlohmann::json err = {
        {"message", message.toStdString()},
        {"type", type.isEmpty() ? std::string(typeForStatus(status)) : type.toStdString()},
        {"param", param.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(param.toStdString())},
        {"code", code.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(code.toStdString())},
    };
    const std::string text = nlohmann::json{{"error", std::move(err)}}.dump(-1, ' ', false,
                                                                            nlohmann::json::error_handler_t::replace);
    return QByteArray(text.data(), qsizetype(text.size()));
}

QString upstreamErrorMessage(const QByteArray &body)
{
    const auto j = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (!j.is_discarded() && j.is_object()) {
        const nlohmann::json *msg = nullptr;
        if (auto e = j.find("error"); e != j.end() && e->is_object()) {
            if (auto m = e->find("message"); m != e->end())
                msg = &*m;
        } else if (auto e2 = j.find("error"); e2 != j.end() && e2->is_string()) {
            msg = &*e2;
        } else if (auto m = j.find("message"); m != j.end()) {
            msg = &*m;
        } else if (auto d = j.find("detail"); d != j.end()) {
            msg = &*d;
        }
        if (msg && msg->is_string())
            return QString::fromStdString(msg->get<std::string>()).left(300);
    }
    QString text = QString::fromUtf8(body).simplified();
    if (text.size() > 200)
        text = text.left(200) + QStringLiteral("…");
    return text;
}

} // namespace switchyard::proxy
