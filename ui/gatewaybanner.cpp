#include "gatewaybanner.h"

#include "statusicons.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTextDocumentFragment>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

GatewayOutage gatewayOutage(const GatewayOutageInput &in)
{
    if (!in.local && in.link.state != link::LinkState::Connected && in.link.state != link::LinkState::Connecting)
        return GatewayOutage::Unseen;
    if (!in.local && !in.haveStatus)
        return GatewayOutage::None; // connecting: the status bar says so, nothing to warn about yet
    if (in.stopping)
        return GatewayOutage::Stopping;
    if (!in.running)
        return in.lastStartFailed ? GatewayOutage::Failed : GatewayOutage::Off;
    if (in.paused)
        return GatewayOutage::Paused;
    return GatewayOutage::None;
}

namespace {
QString since(qint64 ms)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms);
    const QLocale l;
    // Today: the time; earlier: the date as well, so an outage since yesterday does not read as today's.
    if (at.date() == QDate::currentDate())
        return at.time().toString(u"HH:mm:ss"_s);
    return l.toString(at.date(), QLocale::ShortFormat) % u' ' % at.time().toString(u"HH:mm"_s);
}
} // namespace

GatewayBannerContent gatewayBannerContent(GatewayOutage outage, const GatewayOutageInput &in, qint64 sinceMs)
{
    GatewayBannerContent c;
    const QString when = since(sinceMs);
    auto bold = [](const QString &s) { return QString(u"<b>"_s % s.toHtmlEscaped() % u"</b> "_s); };
    switch (outage) {
    case GatewayOutage::None:
        return c;
    case GatewayOutage::Off:
    case GatewayOutage::Failed:
        if (!in.local) {
            c.html = bold(GatewayBanner::tr("The gateway is off (since %1).").arg(when))
                     % GatewayBanner::tr("It takes no requests; start it on its server.").toHtmlEscaped();
        } else if (!in.hasNodes) {
            c.html = bold(GatewayBanner::tr("The gateway is off (since %1).").arg(when))
                     % GatewayBanner::tr("No nodes are configured yet: start the demo or open a config, and the gateway starts with it.")
                           .toHtmlEscaped();
        } else {
            c.html = bold(GatewayBanner::tr("The gateway is off (since %1).").arg(when))
                     % (outage == GatewayOutage::Failed
                            ? GatewayBanner::tr("It could not start (the reason is below); clients cannot connect and no requests "
                                 "reach the nodes.")
                            : GatewayBanner::tr("Clients cannot connect, and no requests reach the nodes."))
                           .toHtmlEscaped();
            c.actionText = GatewayBanner::tr("Start gateway");
        }
        c.nodesNote = GatewayBanner::tr("Not receiving traffic: the gateway is off");
        return c;
    case GatewayOutage::Stopping:
        c.html = bold(GatewayBanner::tr("The gateway is stopping (since %1).").arg(when))
                 % GatewayBanner::tr("New requests are refused; the requests in flight (%1) finish first.")
                       .arg(QLocale().toString(in.inFlight))
                       .toHtmlEscaped();
        c.nodesNote = GatewayBanner::tr("Not receiving new traffic: the gateway is stopping");
        return c;
    case GatewayOutage::Paused:
        c.html = bold(GatewayBanner::tr("The gateway is paused (since %1).").arg(when))
                 % GatewayBanner::tr("New requests get 503 (with Retry-After) and do not reach the nodes; requests in flight finish.")
                       .toHtmlEscaped();
        c.actionText = GatewayBanner::tr("Resume");
        c.nodesNote = GatewayBanner::tr("Not receiving traffic: the gateway is paused");
        return c;
    case GatewayOutage::Unseen:
    {
        QString why = linkStateText(in.link);
        if (!why.endsWith(u'.'))
            why += u'.';
        c.html = bold(GatewayBanner::tr("The panel cannot see the gateway (since %1).").arg(when)) % why.toHtmlEscaped()
                 % u' ' % GatewayBanner::tr("The nodes below are what it reported last.").toHtmlEscaped();
    }
        // (The nodes are greyed as stale by the window, with the link's reason.)
        return c;
    }
    return c;
}

GatewayBanner::GatewayBanner(QWidget *parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)), m_action(new QPushButton(this))
{
    setObjectName(u"gatewayBanner"_s);
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    m_icon->setFixedSize(22, 22);
    m_text->setObjectName(u"gatewayBannerText"_s);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_action->setObjectName(u"gatewayBannerAction"_s);
    connect(m_action, &QPushButton::clicked, this, [this] { emit actionTriggered(m_outage); });
    layout->addWidget(m_icon, 0, Qt::AlignVCenter);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_action, 0, Qt::AlignVCenter);
    hide();
}

void GatewayBanner::setContent(GatewayOutage outage, const GatewayBannerContent &content, const QIcon &icon)
{
    m_outage = outage;
    if (outage == GatewayOutage::None || content.html.isEmpty()) {
        hide();
        return;
    }
    // Red for what is wrong (cannot see it, could not start), amber for a gateway switched off on purpose.
    const bool wrong = outage == GatewayOutage::Unseen || outage == GatewayOutage::Failed;
    const QString style = wrong
        ? u"QFrame#gatewayBanner { background: #fdecea; border: 1px solid #d43c3c; border-radius: 4px; }"
          " QFrame#gatewayBanner QLabel { color: #5f1512; background: transparent; }"_s
        : u"QFrame#gatewayBanner { background: #fff4de; border: 1px solid #e08e00; border-radius: 4px; }"
          " QFrame#gatewayBanner QLabel { color: #4a3000; background: transparent; }"_s;
    if (styleSheet() != style)
        setStyleSheet(style);
    m_icon->setPixmap(icon.pixmap(22, 22));
    if (m_text->text() != content.html)
        m_text->setText(content.html);
    m_action->setText(content.actionText);
    m_action->setVisible(!content.actionText.isEmpty());
    show();
}

QString GatewayBanner::text() const
{
    return isHidden() ? QString() : QTextDocumentFragment::fromHtml(m_text->text()).toPlainText();
}

} // namespace switchyard::ui
