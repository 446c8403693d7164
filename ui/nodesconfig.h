#pragma once

// "Add my nodes": a config file from a few fields (the nodes' base URLs, the model they serve), for an
// operator who has no Bifrost config yet. Written in the article's shape (one provider per node, weight 1,
// 120 s timeout, 2 retries), so it reads like the examples in docs/CONFIG.md and can be edited later.

#include "common/expected.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace switchyard::ui {

struct NodesForm
{
    QString baseUrls; // one per line (or separated by spaces or commas): http[s]://host:port
    QString model;    // what the nodes serve, e.g. nemotron-3-super
    QString apiKey;   // optional: sent to the nodes as Bearer token
    QString listen;   // the gateway's address; empty: 127.0.0.1:8080
};

class NodesConfig final
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::NodesConfig)

public:
    // The config's JSON, checked by the gateway's own loader; else what is wrong, one line per problem,
    // for the form.
    static Expected<QByteArray, QStringList> make(const NodesForm &form);
    // The provider name for a node, what clients pin with "name/model": its host name's first label
    // ("-port" added when two nodes share a host); for an IP address or localhost, vllm-server1, 2, … by
    // its place in the list, as in the article's setup.
    static QStringList providerNames(const QStringList &baseUrls);
    // A path in dir that does not exist yet: config.json, else config-2.json, config-3.json, …
    static QString freePath(const QString &dir);
    // The per-user directory Switchyard keeps its configs in (~/.config/Switchyard/switchyard on Linux).
    static QString userConfigDir();
    // Writes text to path (creating the directory); an error message on failure.
    static Expected<QString, QString> write(const QString &path, const QByteArray &text);
};

} // namespace switchyard::ui
