#pragma once

// The config editor on a remote gateway: the editor shows the gateway's running config (as GET
// /api/config serves it, secrets masked) and Apply sends the edited text back over the link with the
// hash it was read at (PUT /api/config, If-Match). When someone else changed the config meanwhile (412),
// the operator chooses: reload the gateway's config into the editor, or overwrite it with the edited text.
// A failed apply leaves the editor's text as it was and says why. env.NAME references are resolved on
// the gateway, so the editor does not look them up here.

#include "link/gatewaylink.h"

#include <QObject>
#include <QPointer>
#include <functional>

namespace switchyard::ui {

class ConfigEditor;

class RemoteConfig final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteConfig)

public:
    enum class StaleChoice { Reload, Overwrite, Cancel };
    // Asked on a 412. Default: a message box over the editor. Tests inject their answer.
    using StalePrompt = std::function<StaleChoice()>;

    // Both must outlive this (the window owns all three).
    RemoteConfig(link::GatewayLink *gatewayLink, ConfigEditor *editor, QObject *parent = nullptr);

    void setStalePrompt(StalePrompt prompt) { m_prompt = std::move(prompt); }
    // Reads the running config into the editor (done once at the start, and on "reload").
    void fetch();
    QString hash() const { return m_hash; } // the running config's, as last read or applied

private:
    void onFetched(const QByteArray &text, const QString &hash);
    void onPut(const link::ConfigPutResult &result);
    StaleChoice askStale();

    QPointer<link::GatewayLink> m_link;
    ConfigEditor *m_editor;
    StalePrompt m_prompt;
    QString m_hash;
    QByteArray m_sent; // the text of the apply on its way (for an overwrite)
    bool m_fetchPending = false;
};

} // namespace switchyard::ui
