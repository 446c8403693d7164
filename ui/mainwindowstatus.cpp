// What the main window says about its gateway: the banner over every view (gateway off, paused,
// stopping or out of sight; errors and notes), the status bar, the tray and toolbar indicator, and what
// it does with the link's news (a status, the link's state, a command's outcome). The window's set-up
// and commands live in mainwindow.cpp, its menus in mainwindowmenus.cpp.
#include "mainwindow.h"

#include "bench/benchmarkview.h"
#include "chat/chatconsole.h"
#include "config/configeditor.h"
#include "config/remoteconfig.h"
#include "gateway.h"
#include "nodesmodel.h"
#include "nodesview.h"

#include <QAction>
#include <QDateTime>
#include <QFrame>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <climits>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

void MainWindow::updateGatewayBanner()
{
    GatewayOutageInput in;
    in.local = m_gateway != nullptr;
    in.link = m_linkStatus;
    in.haveStatus = m_status.has_value();
    in.lastStartFailed = m_lastStartFailed;
    if (m_gateway) {
        // Asked directly, like the toggle: a start or a stop shows at once.
        in.running = m_gateway->isRunning();
        in.stopping = m_gateway->isStopping();
        in.paused = m_gateway->isPaused();
        in.hasNodes = !m_gateway->config().providers.empty();
    } else if (m_status) {
        in.running = m_status->running;
        in.stopping = m_status->stopping;
        in.paused = m_status->running && !m_status->stopping && !m_status->accepting;
    }
    in.inFlight = m_status ? m_status->inFlight : 0;
    const GatewayOutage outage = gatewayOutage(in);
    // Since when: the moment the window saw it change (off and failed to start are one outage), or for a
    // gateway out of sight, its last answer.
    auto group = [](GatewayOutage o) { return o == GatewayOutage::Failed ? GatewayOutage::Off : o; };
    if (group(outage) != group(m_outage) || m_outageSinceMs == 0)
        m_outageSinceMs = QDateTime::currentMSecsSinceEpoch();
    m_outage = outage;
    qint64 since = m_outageSinceMs;
    if (outage == GatewayOutage::Unseen && m_linkStatus.lastAnswerMs > 0)
        since = m_linkStatus.lastAnswerMs;
    const GatewayBannerContent content = gatewayBannerContent(outage, in, since);
    const GatewayIndicator look = outage == GatewayOutage::Failed     ? GatewayIndicator::Failed
                                  : outage == GatewayOutage::Stopping ? GatewayIndicator::Stopping
                                  : outage == GatewayOutage::Paused   ? GatewayIndicator::Paused
                                  : outage == GatewayOutage::Unseen   ? GatewayIndicator::Unreachable
                                                                      : GatewayIndicator::Off;
    m_stateBanner->setContent(outage, content, gatewayIndicatorIcon(look));
    // The Nodes view: not receiving traffic (greyed, and its state says so) while the gateway takes none.
    m_nodes->model()->setTrafficNote(outage == GatewayOutage::Unseen ? QString() : content.nodesNote);
}

void MainWindow::onGatewayBannerAction(GatewayOutage outage)
{
    switch (outage) {
    case GatewayOutage::Off:
    case GatewayOutage::Failed:
    case GatewayOutage::Paused:
        startGateway(); // this process's starts (or resumes); a remote one resumes over the link
        break;
    case GatewayOutage::None:
    case GatewayOutage::Stopping:
    case GatewayOutage::Unseen:
        break;
    }
    syncGatewayActions();
}

QString MainWindow::gatewayBannerText() const
{
    return m_stateBanner->text();
}

void MainWindow::updateIndicator()
{
    const GatewayIndicator ind = gatewayIndicator(m_status, m_linkStatus, m_lastStartFailed);
    QString tip = tr("Switchyard: %1").arg(gatewayIndicatorText(ind));
    tip += u'\n' % tr("Gateway: %1").arg(m_link->displayName());
    if (m_linkStatus.state != link::LinkState::Connected)
        tip += u'\n' % linkStateText(m_linkStatus);
    if (m_status && m_status->running)
        tip += u'\n' % m_status->listenUrl;
    int down = 0, degraded = 0;
    if (m_status) {
        for (const link::NodeStatus &n : m_status->nodes) {
            down += n.state == health::NodeState::Down;
            degraded += n.state == health::NodeState::Degraded;
        }
        if (!m_status->nodes.isEmpty())
            tip += u'\n' % tr("Nodes: %1, down: %2, degraded: %3").arg(m_status->nodes.size()).arg(down).arg(degraded);
    }
    if (m_tray && m_tray->toolTip() != tip)
        m_tray->setToolTip(tip);
    if (m_indicatorSet && ind == m_indicator)
        return;
    const GatewayIndicator previous = m_indicator;
    m_indicator = ind;
    m_indicatorSet = true;
    const QIcon icon = gatewayIndicatorIcon(ind);
    setWindowIcon(icon);
    m_stateIcon->setPixmap(icon.pixmap(16, 16));
    if (m_tray) {
        m_tray->setIcon(icon);
        if (ind == GatewayIndicator::NodeDown && previous != GatewayIndicator::NodeDown)
            m_tray->showMessage(tr("Switchyard"), tr("A node is down."), QSystemTrayIcon::Warning);
        if (ind == GatewayIndicator::Unreachable && previous != GatewayIndicator::Unreachable)
            m_tray->showMessage(tr("Switchyard"), linkStateText(m_linkStatus), QSystemTrayIcon::Warning);
    }
}

void MainWindow::updateStatusBar()
{
    // A gateway the panel cannot see: the link's state and why, not the last state it reported.
    const bool seen = m_indicator != GatewayIndicator::Unreachable && m_indicator != GatewayIndicator::Connecting;
    m_stateText->setText(seen ? gatewayIndicatorText(m_indicator) : linkStateText(m_linkStatus));
    // A remote gateway's name is its URL already: said once, not twice.
    const QString url = m_status && m_status->running ? m_status->listenUrl : QString();
    m_urlText->setText(url == m_link->displayName() ? QString() : url);
    if (!m_status) {
        m_ratesText->clear();
        return;
    }
    const QLocale l;
    const link::GatewayStatus &s = *m_status;
    m_ratesText->setText(tr("%1 req/s \u00b7 %2 errors/s \u00b7 %3 tokens/s \u00b7 %4 in flight")
                             .arg(NodesModel::formatRate(s.rates.requestsPerSecond),
                                  NodesModel::formatRate(s.rates.errorsPerSecond),
                                  NodesModel::formatRate(s.rates.tokensPerSecond), l.toString(s.inFlight)));
}

void MainWindow::onStatus(const link::GatewayStatus &s)
{
    m_status = s;
    // A remote gateway's config is read once it answers (again after it was lost, unless edited here).
    if (m_remoteConfig && m_remoteConfigWanted && m_configEditor && !m_configEditor->isModified()) {
        m_remoteConfigWanted = false;
        m_remoteConfig->fetch();
    }
    m_nodes->setStatus(s);
    // The lasting history could not be opened (or was started anew): said once per distinct reason, as a
    // note the operator can dismiss; the gateway serves on regardless.
    if (!s.historyProblem.isEmpty() && s.historyProblem != m_historyProblemShown && bannerText().isEmpty()) {
        showNote(tr("Request history: %1").arg(s.historyProblem));
        m_historyProblemShown = s.historyProblem;
    }
    // The history's writer fell behind the disk and records were dropped (requests were served): said
    // with the count whenever it grows, so a disk that cannot keep up does not go unnoticed. A lower count
    // is another gateway process (restarted, or a different one): counted from there.
    if (s.historyDropped > m_historyDroppedSeen) {
        const QString note = tr("Request history: %n record(s) could not be written in time (the disk is behind); "
                                "the requests themselves were served", nullptr, int(std::min<qint64>(s.historyDropped, INT_MAX)));
        if (bannerText().isEmpty() || bannerText() == m_historyDroppedNote.toHtmlEscaped()) {
            showNote(note);
            m_historyDroppedNote = note;
        }
    }
    m_historyDroppedSeen = s.historyDropped;
    // Redis, through which replicas share the keys' limits, out of reach: said while it lasts (each
    // gateway then counts the limits alone), and taken down once Redis answers again.
    const QString redisNote = s.redisProblem.isEmpty() ? QString() : tr("Shared limits: %1").arg(s.redisProblem);
    if (redisNote != m_redisNoteShown) {
        if (!m_redisNoteShown.isEmpty() && bannerText() == m_redisNoteShown.toHtmlEscaped())
            hideBanner();
        if (!redisNote.isEmpty() && bannerText().isEmpty())
            showNote(redisNote);
        m_redisNoteShown = redisNote;
    }
    updateIndicator();
    updateStatusBar();
    if (!m_gateway || m_gateway->isStopping() != !m_toggle->isEnabled())
        syncGatewayActions();
    else
        updateGatewayBanner(); // (the requests in flight while stopping, nodes configured since)
}

void MainWindow::aimToolsAtTheLink()
{
    m_toolsTarget = {m_link->apiUrl().toString(), m_link->clientKey(), m_link->certificatePin()};
    if (m_chat)
        m_chat->setRemoteGateway(m_link->apiUrl(), m_link->clientKey(), m_link->certificatePin());
    if (m_bench)
        m_bench->setRemoteGateway(m_link->apiUrl().toString(), m_link->clientKey(), m_link->certificatePin());
}

void MainWindow::onLinkStatus(const link::LinkStatus &s)
{
    const bool wasSeen = m_linkStatus.state == link::LinkState::Connected;
    m_linkStatus = s;
    const bool seen = s.state == link::LinkState::Connected;
    if (seen && !wasSeen)
        m_remoteConfigWanted = true;
    // A certificate trusted since the window opened, or a fleet now answered by another member: chat and
    // benchmark follow the link to the same gateway, the same way.
    if (isRemote() && seen
        && m_toolsTarget != ToolsTarget{m_link->apiUrl().toString(), m_link->clientKey(), m_link->certificatePin()})
        aimToolsAtTheLink();
    // Until it answers again, what the Nodes view shows is only the last thing the gateway said (the
    // gateway banner says so, with the reason).
    const bool lost = !seen && s.state != link::LinkState::Connecting;
    m_nodes->model()->setStale(lost, linkStateText(s));
    m_nodes->setNodeActionsEnabled(!lost, tr("The panel cannot see the gateway now"));
    // A fleet's name changes as gateways join and leave it.
    m_gatewayText->setText(tr("Gateway: %1").arg(m_link->displayName()));
    updateTitle();
    updateIndicator();
    updateStatusBar();
    syncGatewayActions();
}

void MainWindow::onCommandFinished(const QString &what, bool ok, const QString &message)
{
    // A read that failed is the link's business (its state says why, and the next poll tries again);
    // the operator hears about commands.
    if (what.startsWith(u"GET "_s))
        return;
    // Virtual keys are the Keys view's: it says how each command went (and a fleet's refusal) where
    // the keys are, so the window's banner is not raised on every poll of a link without keys.
    if (what == u"list keys"_s || what == u"create key"_s || what.startsWith(u"change key "_s)
        || what.startsWith(u"revoke key "_s))
        return;
    if (!ok) {
        showError(tr("<b>%1</b> did not succeed: %2").arg(what.toHtmlEscaped(), message.toHtmlEscaped()));
        return;
    }
    if (m_gateway)
        return;
    // The command's name is the wire's word; the operator reads what it did, in their language.
    QString done;
    if (what == u"pause"_s)
        done = tr("The gateway is paused: new requests get 503 until you resume it");
    else if (what == u"resume"_s)
        done = tr("The gateway accepts requests again");
    else if (what == u"stop"_s)
        done = tr("The gateway stopped");
    else if (what == u"start"_s)
        done = tr("The gateway started");
    if (!done.isEmpty())
        statusBar()->showMessage(message.isEmpty() ? done : message, 8000);
}

QString MainWindow::statusText() const
{
    return QStringList{m_stateText->text(), m_gatewayText->text(), m_urlText->text(), m_ratesText->text()}.join(u" | "_s);
}

void MainWindow::showError(const QString &html)
{
    m_banner->setProperty("kind", u"error"_s);
    m_banner->setStyleSheet(u"QFrame#banner { background: #fdecea; border: 1px solid #d43c3c; border-radius: 4px; }"
                            " QFrame#banner QLabel { color: #5f1512; background: transparent; }"_s);
    m_bannerText->setText(html);
    m_banner->show();
}

void MainWindow::showNote(const QString &text)
{
    m_banner->setProperty("kind", u"note"_s);
    m_banner->setStyleSheet(u"QFrame#banner { background: #fff4de; border: 1px solid #e08e00; border-radius: 4px; }"
                            " QFrame#banner QLabel { color: #4a3000; background: transparent; }"_s);
    m_bannerText->setText(text.toHtmlEscaped());
    m_banner->show();
}

QString MainWindow::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_bannerText->text();
}

void MainWindow::hideBanner()
{
    m_banner->hide();
    m_bannerText->clear();
}

} // namespace switchyard::ui
