#include "openaimodels.h"

#include "openaijson.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

bool ModelEntry::pinned() const
{
    // The gateway lists "provider/model" for each node; a bare model name may itself contain '/'
    // (Hugging Face ids), so only a prefix naming its one provider counts as a pin.
    return providers.size() == 1 && id.startsWith(providers.first() + u'/');
}

} // namespace switchyard::client

namespace switchyard::openai {

QList<ModelEntry> parseModelList(QByteArrayView body, QString *error)
{
    const auto failed = [error](QString why) {
        if (error)
            *error = std::move(why);
        return QList<ModelEntry>();
    };
    const QByteArrayView text = body.trimmed();
    if (text.isEmpty())
        return failed(u"empty response"_s);
    QString why;
    const nlohmann::json json = parseJsonObject(text, &why);
    if (json.is_discarded())
        return failed(why);
    const nlohmann::json *data = member(json, "data");
    if (!data || !data->is_array())
        return failed(u"no \"data\" array in the model list"_s);

    QList<ModelEntry> models;
    models.reserve(qsizetype(data->size()));
    for (const nlohmann::json &m : *data) {
        ModelEntry entry{stringMember(m, "id"), {}};
        if (entry.id.isEmpty())
            continue;
        const QStringList owners = stringMember(m, "owned_by").split(u',', Qt::SkipEmptyParts);
        for (const QString &owner : owners) {
            if (const QString name = owner.trimmed(); !name.isEmpty())
                entry.providers.append(name);
        }
        models.append(std::move(entry));
    }
    return models;
}

} // namespace switchyard::openai
