#pragma once

// The band across the top of every view while the gateway takes no traffic: off, stopping, paused, or
// (a remote one) out of the panel's sight. It says which, since when, and offers the one action that
// fixes it when the panel can take it (Start gateway, Resume). A state, not a message: it cannot be
// dismissed, it goes when the gateway takes traffic again.

#include "link/gatewaylink.h"

#include <QFrame>
#include <optional>

class QLabel;
class QPushButton;

namespace switchyard::ui {

// What the gateway is doing, as far as taking traffic goes.
enum class GatewayOutage {
    None,     // taking traffic (or still connecting: nothing known to warn about)
    Off,      // not listening
    Failed,   // not listening: the last start failed
    Stopping, // draining: requests in flight finish, new ones are refused
    Paused,   // listening, new proxied requests get 503
    Unseen,   // a remote gateway the panel cannot see (unreachable, a wrong key …)
};

// The gateway as the window knows it: this process's is asked directly (a start shows at once), a remote
// one through the link's last status and state.
struct GatewayOutageInput
{
    bool local = true;
    bool running = false, stopping = false, paused = false;
    bool lastStartFailed = false;
    bool hasNodes = true;   // nothing configured: the start page says what to do, not a Start button
    qint64 inFlight = 0;
    link::LinkStatus link;  // a local link is always Connected
    bool haveStatus = true; // a remote gateway has answered at least once
};

GatewayOutage gatewayOutage(const GatewayOutageInput &input);

// The banner's words for an outage that began at sinceMs (ms since the epoch), and its action.
struct GatewayBannerContent
{
    QString html;       // empty: no banner
    QString actionText; // empty: no button
    QString nodesNote;  // what the Nodes view says for every node ("not receiving traffic: gateway off")
};
GatewayBannerContent gatewayBannerContent(GatewayOutage outage, const GatewayOutageInput &input, qint64 sinceMs);

class GatewayBanner final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewayBanner)

public:
    explicit GatewayBanner(QWidget *parent = nullptr);

    // Shows the banner for an outage (hides it for None); the icon is the status bar's for the same state.
    void setContent(GatewayOutage outage, const GatewayBannerContent &content, const QIcon &icon);
    GatewayOutage outage() const { return m_outage; }
    QString text() const;            // plain text, empty while hidden
    QPushButton *actionButton() const { return m_action; }

signals:
    void actionTriggered(switchyard::ui::GatewayOutage outage);

private:
    GatewayOutage m_outage = GatewayOutage::None;
    QLabel *m_icon;
    QLabel *m_text;
    QPushButton *m_action;
};

} // namespace switchyard::ui
