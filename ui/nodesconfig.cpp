#include "nodesconfig.h"

#include "config/configloader.h"

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

QStringList splitUrls(const QString &text)
{
    return text.split(QRegularExpression(u"[\\s,]+"_s), Qt::SkipEmptyParts);
}

} // namespace

QStringList NodesConfig::providerNames(const QStringList &baseUrls)
{
    // A host name says which machine it is ("dgx-a.lan" → dgx-a); an address does not, and would have to
    // be quoted in every path and pinned as "192.168.1.10/model": those are numbered as in the article's
    // setup (vllm-server1, vllm-server2, …), by their place in the list.
    QStringList hosts;
    for (const QString &u : baseUrls) {
        const QString host = QUrl(u).host().toLower();
        const bool address = QHostAddress(host).protocol() != QAbstractSocket::UnknownNetworkLayerProtocol;
        const QString label = host.section(u'.', 0, 0);
        const bool plain = !label.isEmpty() && QRegularExpression(u"^[a-z0-9][a-z0-9_-]*$"_s).match(label).hasMatch();
        hosts << (address || !plain || label == u"localhost" ? QString() : label);
    }
    QStringList out;
    for (qsizetype i = 0; i < baseUrls.size(); ++i) {
        const QUrl url(baseUrls[i]);
        QString name = hosts[i].isEmpty() ? u"vllm-server"_s % QString::number(i + 1) : hosts[i];
        if (!hosts[i].isEmpty() && hosts.count(hosts[i]) > 1)
            name += u'-' % QString::number(url.port(url.scheme() == u"https" ? 443 : 80));
        // Still the same name (same host and port twice): number them.
        QString unique = name;
        for (int n = 2; out.contains(unique); ++n)
            unique = name % u'-' % QString::number(n);
        out << unique;
    }
    return out;
}

Expected<QByteArray, QStringList> NodesConfig::make(const NodesForm &form)
{
    QStringList problems;
    const QStringList urls = splitUrls(form.baseUrls);
    if (urls.isEmpty())
        problems << tr("Enter at least one node's base URL, such as http://192.168.1.10:8000.");
    for (const QString &u : urls) {
        const QUrl url(u, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https") || url.host().isEmpty())
            problems << tr("%1 is not an http:// or https:// URL with a host.").arg(u);
    }
    const QString model = form.model.trimmed();
    if (model.isEmpty())
        problems << tr("Enter the model the nodes serve, as their /v1/models lists it.");
    if (!problems.isEmpty())
        return unexpected(problems);

    const QStringList names = providerNames(urls);
    QJsonObject providers;
    for (qsizetype i = 0; i < urls.size(); ++i) {
        QString base = urls[i];
        while (base.endsWith(u'/'))
            base.chop(1);
        // vLLM's URLs are often copied with /v1: the gateway adds the path itself.
        if (base.endsWith(u"/v1"))
            base.chop(3);
        const QJsonObject key{
            {u"name"_s, QString(names[i] % u"-key"_s)},
            {u"value"_s, form.apiKey.trimmed().isEmpty() ? u"dummy"_s : form.apiKey.trimmed()},
            {u"models"_s, QJsonArray{model}},
            {u"weight"_s, 1}};
        providers.insert(
            names[i],
            QJsonObject{{u"keys"_s, QJsonArray{key}},
                        {u"network_config"_s, QJsonObject{{u"base_url"_s, base},
                                                          {u"default_request_timeout_in_seconds"_s, 120},
                                                          {u"max_retries"_s, 2}}},
                        {u"custom_provider_config"_s,
                         QJsonObject{{u"base_provider_type"_s, u"openai"_s},
                                     {u"allowed_requests"_s, QJsonObject{{u"chat_completion"_s, true},
                                                                         {u"text_completion"_s, true}}}}}});
    }
    const QString listen = form.listen.trimmed().isEmpty() ? u"127.0.0.1:8080"_s : form.listen.trimmed();
    const QJsonObject root{{u"providers"_s, providers},
                           {u"switchyard"_s, QJsonObject{{u"listen"_s, listen}}}};
    const QByteArray text = QJsonDocument(root).toJson(QJsonDocument::Indented);
    // The gateway's loader has the last word (listen address forms, names): its problems, with their paths.
    const auto parsed = config::parseConfig(text);
    if (!parsed) {
        for (const config::ConfigProblem &p : parsed.error())
            problems << p.toString();
        return unexpected(problems);
    }
    return text;
}

QString NodesConfig::userConfigDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
}

QString NodesConfig::freePath(const QString &dir)
{
    QString path = QDir(dir).filePath(u"config.json"_s);
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = QDir(dir).filePath(u"config-%1.json"_s.arg(n));
    return path;
}

Expected<QString, QString> NodesConfig::write(const QString &path, const QByteArray &text)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return unexpected(tr("Cannot create the folder %1.").arg(QFileInfo(path).absolutePath()));
    QSaveFile f(path);
    // It may hold the nodes' API key: readable by its owner only.
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size() || !f.commit())
        return unexpected(tr("Cannot write %1: %2").arg(path, f.errorString()));
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return QFileInfo(path).absoluteFilePath();
}

} // namespace switchyard::ui
