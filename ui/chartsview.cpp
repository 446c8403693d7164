#include "chartsview.h"

#include "chartaxis.h"
#include "chartpalette.h"
#include "historycharts.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QMessageBox>
#include <QSaveFile>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QValueAxis>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

const QColor TotalColor(0x30, 0x36, 0x3d);
const QColor ErrorColor(0xd4, 0x3c, 0x3c);
const QColor FailedAttemptColor(0xe0, 0x8e, 0x00);

// A legend entry's name as HTML that never breaks across rows: the label wraps between entries only.
// (Qt's rich text ignores white-space:nowrap on inline text: spaces become non-breaking, and a word
// joiner follows the places a line may otherwise break, after a hyphen and between CJK characters.)
QString unbreakable(const QString &name)
{
    QString out;
    out.reserve(name.size() * 2);
    for (const QChar c : name) {
        if (c == u' ') {
            out += u"&nbsp;"_s;
            continue;
        }
        out += QString(c).toHtmlEscaped();
        if (c == u'-' || (c.unicode() >= 0x2E80 && !c.isSurrogate()))
            out += QChar(0x2060); // WORD JOINER
    }
    return out;
}

} // namespace

ChartsView::ChartsView(QWidget *parent) : QWidget(parent), m_refresh(new QTimer(this))
{
    auto *bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Window:"), this));
    m_windowBox = new QComboBox(this);
    m_windowBox->setObjectName(u"chartWindow"_s);
    m_windowBox->addItem(tr("1 minute (1 s points)"), int(TimeWindow::OneMinute));
    m_windowBox->addItem(tr("15 minutes (5 s averages)"), int(TimeWindow::FifteenMinutes));
    m_windowBox->addItem(tr("1 hour (20 s averages)"), int(TimeWindow::OneHour));
    // Beyond the hour the gateway keeps per second: its lasting history's sums, when it keeps one.
    m_windowBox->addItem(tr("24 hours (history, 5 min sums)"), HistoryDay);
    m_windowBox->addItem(tr("7 days (history, hourly sums)"), HistoryWeek);
    connect(m_windowBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        const int data = m_windowBox->itemData(i).toInt();
        const bool fromHistory = data == HistoryDay || data == HistoryWeek;
        m_pages->setCurrentIndex(fromHistory ? 1 : 0);
        m_pauseButton->setEnabled(!fromHistory);
        if (fromHistory)
            m_historyCharts->setSpan(data == HistoryDay ? HistoryCharts::Span::Day
                                                        : HistoryCharts::Span::Week);
        else
            setWindow(TimeWindow(data));
    });
    bar->addWidget(m_windowBox);
    m_pauseButton = new QToolButton(this);
    m_pauseButton->setObjectName(u"chartPause"_s);
    m_pauseButton->setText(tr("&Pause"));
    m_pauseButton->setCheckable(true);
    m_pauseButton->setToolTip(tr("Freeze the charts; samples are still recorded"));
    connect(m_pauseButton, &QToolButton::toggled, this, &ChartsView::setPaused);
    bar->addWidget(m_pauseButton);
    m_status = new QLabel(this);
    bar->addWidget(m_status);
    bar->addStretch(1);
    auto *png = new QToolButton(this);
    png->setText(tr("Export PNG\u2026"));
    connect(png, &QToolButton::clicked, this, &ChartsView::exportPngInteractive);
    auto *csv = new QToolButton(this);
    csv->setText(tr("Export CSV\u2026"));
    connect(csv, &QToolButton::clicked, this, &ChartsView::exportCsvInteractive);
    bar->addWidget(png);
    bar->addWidget(csv);

    m_grid = new QWidget(this);
    auto *grid = new QGridLayout(m_grid);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    const QString titles[ChartCount] = {tr("Output tokens/s"), tr("Requests/s"), tr("Latency (s)"),
                                        tr("Queue depth"), tr("Prefix-cache hits (%)")};
    const QString yTitles[ChartCount] = {tr("tokens/s"), tr("requests/s"), tr("seconds"), tr("requests"),
                                         tr("%")};
    for (int i = 0; i < ChartCount; ++i) {
        Panel &p = m_panels[i];
        p.chart = new QChart();
        p.chart->setAnimationOptions(QChart::NoAnimation);
        p.chart->setTitle(titles[i]);
        QFont tf = p.chart->titleFont();
        tf.setBold(true);
        p.chart->setTitleFont(tf);
        p.chart->setMargins(QMargins(2, 2, 2, 2));
        // The chart's own legend keeps its entries on one row and cuts their names once they do not
        // fit (node names, longer words in Chinese, a window of 1280 px): a label below wraps instead.
        p.chart->legend()->hide();
        p.x = new QDateTimeAxis(p.chart);
        p.x->setFormat(u"HH:mm:ss"_s);
        p.x->setTickCount(4); // three charts a row: more HH:mm:ss labels than this get cut short
        p.y = new QValueAxis(p.chart);
        p.y->setLabelFormat(u"%g"_s);
        p.y->setTickCount(5);
        p.y->setRange(0, 1);
        p.y->setTitleText(yTitles[i]);
        p.chart->addAxis(p.x, Qt::AlignBottom);
        p.chart->addAxis(p.y, Qt::AlignLeft);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        p.x->setRange(QDateTime::fromMSecsSinceEpoch(now - 60'000), QDateTime::fromMSecsSinceEpoch(now));
        auto *cell = new QWidget(m_grid);
        auto *cellLayout = new QVBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        cellLayout->setSpacing(0);
        p.view = new QChartView(p.chart, cell);
        p.view->setRenderHint(QPainter::Antialiasing);
        p.view->setMinimumSize(320, 200);
        p.legend = new QLabel(cell);
        p.legend->setObjectName(u"chartLegend"_s);
        p.legend->setWordWrap(true);
        p.legend->setTextFormat(Qt::RichText);
        p.legend->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
        p.legend->setContentsMargins(8, 2, 8, 4);
        p.legend->setToolTip(tr("Click a line's name to hide or show it"));
        connect(p.legend, &QLabel::linkActivated, this, &ChartsView::toggleLine);
        cellLayout->addWidget(p.view, 1);
        cellLayout->addWidget(p.legend);
        grid->addWidget(cell, i / 3, i % 3);
    }

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_grid);
    m_historyCharts = new HistoryCharts(this);
    m_historyCharts->setObjectName(u"historyCharts"_s);
    m_pages->addWidget(m_historyCharts);
    connect(m_historyCharts, &HistoryCharts::rollupsRequested, this,
            [this](quint64 ticket, const history::RollupQuery &query) {
                if (m_link)
                    m_link->fetchRollups(ticket, query);
            });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_pages, 1);

    connect(m_refresh, &QTimer::timeout, this, [this] {
        if (m_dirty && !m_paused && isVisible())
            refreshNow();
    });
    updateTimerInterval();
    m_refresh->start();
}

ChartsView::~ChartsView()
{
    qDeleteAll(m_lines);
}

QChart *ChartsView::chart(Chart which) const
{
    return m_panels[int(which)].chart;
}

QStringList ChartsView::seriesIds() const
{
    return m_order;
}

QLineSeries *ChartsView::series(const QString &id) const
{
    const Line *l = m_lines.value(id);
    return l ? l->series : nullptr;
}

const MetricHistory *ChartsView::history(const QString &id) const
{
    const Line *l = m_lines.value(id);
    return l ? &l->history : nullptr;
}

QColor ChartsView::nodeColor(const QString &node)
{
    auto it = m_nodeIndex.constFind(node);
    if (it == m_nodeIndex.constEnd())
        it = m_nodeIndex.insert(node, int(m_nodeIndex.size()));
    return seriesColor(*it);
}

ChartsView::Line &ChartsView::line(const QString &id, Chart chart, const QString &label, const QColor &color,
                                   qreal width, Qt::PenStyle style, const Source &source)
{
    if (Line *existing = m_lines.value(id))
        return *existing;
    auto *l = new Line{chart, label, new QLineSeries(), MetricHistory(), source};
    l->series->setName(label);
    QPen pen(color, width, style);
    pen.setCapStyle(Qt::RoundCap);
    l->series->setPen(pen);
    Panel &p = m_panels[int(chart)];
    p.chart->addSeries(l->series);
    l->series->attachAxis(p.x);
    l->series->attachAxis(p.y);
    m_lines.insert(id, l);
    m_order.append(id);
    updateLegend(chart);
    return *l;
}

void ChartsView::updateLegend(Chart chart)
{
    // One entry per line: a short stroke in its colour (dashed lines dashed) and its name, kept together
    // on a row; a hidden line's entry stays, greyed, so it can be clicked back.
    QStringList entries;
    for (const QString &id : std::as_const(m_order)) {
        const Line *l = m_lines.value(id);
        if (l->chart != chart)
            continue;
        const bool shown = l->series->isVisible();
        const QString stroke =
            l->series->pen().style() == Qt::SolidLine ? u"\u2501\u2501"_s : u"\u254D\u254D"_s;
        const QString colour = shown ? l->series->pen().color().name() : u"#b0b0b0"_s;
        const QString text = shown ? palette().color(QPalette::WindowText).name() : u"#a0a0a0"_s;
        entries << u"<a href=\""_s % QString::fromLatin1(QUrl::toPercentEncoding(id)) %
                       u"\" style=\"text-decoration:none\"><span style=\"color:"_s % colour % u"\">"_s %
                       stroke % u"</span>&nbsp;<span style=\"color:"_s % text % u"\">"_s %
                       unbreakable(l->label) % u"</span></a>"_s;
    }
    m_panels[int(chart)].legend->setText(entries.join(u" &nbsp;&nbsp; "_s));
}

void ChartsView::toggleLine(const QString &link)
{
    const QString id = QUrl::fromPercentEncoding(link.toLatin1());
    Line *l = m_lines.value(id);
    if (!l)
        return;
    l->series->setVisible(!l->series->isVisible());
    updateLegend(l->chart);
    m_dirty = true;
    refreshNow();
}

void ChartsView::record(Line &l, double value)
{
    l.history.add(m_lastSampleMs, value);
    l.live.push(QPointF(double(m_lastSampleMs), value));
}

void ChartsView::setLink(link::GatewayLink *gatewayLink)
{
    for (const QMetaObject::Connection &c : std::as_const(m_linkConnections))
        disconnect(c);
    m_linkConnections.clear();
    m_link = gatewayLink;
    m_lastStatus.reset();
    m_needsHistory = gatewayLink != nullptr;
    if (!gatewayLink)
        return;
    m_linkState = gatewayLink->linkStatus().state;
    m_linkConnections << connect(
        gatewayLink, &link::GatewayLink::statusChanged, this,
        [this](const link::GatewayStatus &s) { addStatus(s, QDateTime::currentMSecsSinceEpoch()); });
    m_linkConnections << connect(gatewayLink, &link::GatewayLink::historyFetched, this,
                                 &ChartsView::fillHistory);
    m_linkConnections << connect(gatewayLink, &link::GatewayLink::rollupsFetched, m_historyCharts,
                                 &HistoryCharts::showResult);
    if (m_historyCharts->isVisible())
        m_historyCharts->refresh();
    m_linkConnections << connect(
        gatewayLink, &link::GatewayLink::linkStatusChanged, this, [this](const link::LinkStatus &s) {
            // Back after a gap: the gateway kept counting meanwhile; its history fills the gap.
            if (s.state == link::LinkState::Connected && m_linkState != link::LinkState::Connected)
                m_needsHistory = true;
            m_linkState = s.state;
        });
}

void ChartsView::requestHistory()
{
    if (!m_link || !m_lastStatus)
        return;
    m_needsHistory = false;
    m_link->fetchHistory(stats::SecondsHistory::GatewaySeries, stats::SecondsHistory::Capacity);
    for (const link::NodeStatus &n : m_lastStatus->nodes)
        m_link->fetchHistory(n.name, stats::SecondsHistory::Capacity);
}

std::optional<double> ChartsView::valueOf(const stats::SecondSample &s, Field field)
{
    auto latency = [](float ms) {
        return ms < 0 ? std::nullopt : std::optional<double>(double(ms) / 1000.0);
    };
    switch (field) {
    case Field::None:
        return std::nullopt;
    case Field::CompletionTokens:
        return double(s.completionTokens);
    case Field::Requests:
        return double(s.requests);
    case Field::Errors:
        return double(s.errors);
    case Field::FailedAttempts:
        return double(s.failedAttempts);
    case Field::LatencyP50:
        return latency(s.latencyP50Ms);
    case Field::LatencyP95:
        return latency(s.latencyP95Ms);
    case Field::InFlight:
        return double(s.inFlight);
    case Field::PrefixHits:
        return s.prefixHitRate < 0 ? std::nullopt : std::optional<double>(double(s.prefixHitRate) * 100.0);
    }
    return std::nullopt;
}

void ChartsView::fillHistory(const QString &series, const QList<stats::SecondSample> &samples)
{
    if (samples.isEmpty())
        return;
    const qint64 endMs = (samples.last().second + 1) * 1000;
    for (const QString &id : std::as_const(m_order)) {
        Line *l = m_lines.value(id);
        if (l->source.series != series || l->source.field == Field::None)
            continue;
        MetricHistory filled;
        for (const stats::SecondSample &s : samples) {
            if (const auto v = valueOf(s, l->source.field))
                filled.add(s.second * 1000, *v);
        }
        // Live points newer than the history's last second stay (they are what the gateway said since).
        for (qsizetype i = 0; i < l->live.size(); ++i) {
            const QPointF &p = l->live.at(i);
            if (qint64(p.x()) >= endMs)
                filled.add(qint64(p.x()), p.y());
        }
        l->history = std::move(filled);
    }
    m_lastSampleMs = std::max(m_lastSampleMs, endMs - 1);
    m_dirty = true;
    if (isVisible() && !m_paused)
        refreshNow();
}

void ChartsView::addStatus(const link::GatewayStatus &s, qint64 timeMs)
{
    m_lastSampleMs = std::max(m_lastSampleMs, timeMs);
    const QString all = stats::SecondsHistory::GatewaySeries;
    record(line(u"tokens/total"_s, Chart::Tokens, tr("All nodes"), TotalColor, 2.5, Qt::SolidLine,
                {all, Field::CompletionTokens}),
           s.rates.tokensPerSecond);
    for (const link::NodeStatus &n : s.nodes) {
        record(line(u"tokens/node/"_s + n.name, Chart::Tokens, n.name, nodeColor(n.name), 2, Qt::SolidLine,
                    {n.name, Field::CompletionTokens}),
               n.rates.tokensPerSecond);
    }
    record(line(u"requests/total"_s, Chart::Requests, tr("Requests"), TotalColor, 2.5, Qt::SolidLine,
                {all, Field::Requests}),
           s.rates.requestsPerSecond);
    // Failed requests are what clients saw fail (5xx, no answer, a stream cut); failed attempts are
    // every attempt a node failed, also those the gateway failed over so the client never noticed: a
    // gap between the two lines is failover at work, and a node failing quietly.
    record(line(u"requests/errors"_s, Chart::Requests, tr("Failed requests"), ErrorColor, 2, Qt::SolidLine,
                {all, Field::Errors}),
           s.rates.errorsPerSecond);
    double failedAttempts = 0;
    for (const link::NodeStatus &n : s.nodes)
        failedAttempts += n.rates.errorsPerSecond; // a node's errors are its failed attempts
    record(line(u"requests/failed-attempts"_s, Chart::Requests, tr("Failed attempts"), FailedAttemptColor, 2,
                Qt::DashLine, {all, Field::FailedAttempts}),
           failedAttempts);
    const QColor p50(0x2c, 0xa0, 0x2c), p95(0xe0, 0x8e, 0x00), ttft(0x94, 0x67, 0xbd);
    // Latency lines exist from the start (so the legend is stable) and get points only when there are
    // requests.
    Line &l50 =
        line(u"latency/p50"_s, Chart::Latency, tr("p50"), p50, 2, Qt::SolidLine, {all, Field::LatencyP50});
    Line &l95 =
        line(u"latency/p95"_s, Chart::Latency, tr("p95"), p95, 2, Qt::SolidLine, {all, Field::LatencyP95});
    // The history has no time-to-first-token p95: this line is live only.
    Line &lt =
        line(u"latency/ttft-p95"_s, Chart::Latency, tr("Time to first token p95"), ttft, 2, Qt::DashLine);
    if (s.window.latencyP50Ms)
        record(l50, *s.window.latencyP50Ms / 1000.0);
    if (s.window.latencyP95Ms)
        record(l95, *s.window.latencyP95Ms / 1000.0);
    if (s.window.ttftP95Ms)
        record(lt, *s.window.ttftP95Ms / 1000.0);
    for (const link::NodeStatus &n : s.nodes) {
        record(line(u"queue/inflight/"_s + n.name, Chart::Queue, tr("%1 in flight").arg(n.name),
                    nodeColor(n.name), 2, Qt::SolidLine, {n.name, Field::InFlight}),
               double(n.inFlight));
        if (n.waiting)
            record(line(u"queue/waiting/"_s + n.name, Chart::Queue, tr("%1 waiting").arg(n.name),
                        nodeColor(n.name), 2, Qt::DashLine),
                   *n.waiting);
        if (n.prefixCacheHitRate)
            record(line(u"cache/hits/"_s + n.name, Chart::CacheHits, n.name, nodeColor(n.name), 2,
                        Qt::SolidLine, {n.name, Field::PrefixHits}),
                   *n.prefixCacheHitRate * 100.0);
    }
    m_dirty = true;
    m_lastStatus = s;
    if (m_needsHistory && isVisible())
        requestHistory();
}

void ChartsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_needsHistory)
        requestHistory();
    if (m_dirty && !m_paused)
        refreshNow(); // hidden, it only recorded: catch up at once rather than at the next tick
}

void ChartsView::setWindow(TimeWindow window)
{
    if (window == m_window)
        return;
    m_window = window;
    const int i = m_windowBox->findData(int(window));
    if (i >= 0 && m_windowBox->currentIndex() != i)
        m_windowBox->setCurrentIndex(i);
    const QString format = window == TimeWindow::OneMinute ? u"HH:mm:ss"_s : u"HH:mm"_s;
    for (Panel &p : m_panels)
        p.x->setFormat(format);
    updateTimerInterval();
    m_dirty = true;
    refreshNow();
}

void ChartsView::setPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    if (m_pauseButton->isChecked() != paused)
        m_pauseButton->setChecked(paused);
    m_status->setText(paused ? tr("Paused: samples are still recorded.") : QString());
    if (!paused)
        refreshNow();
}

void ChartsView::updateTimerInterval()
{
    switch (m_window) {
    case TimeWindow::OneMinute:
        m_refresh->setInterval(500);
        break;
    case TimeWindow::FifteenMinutes:
        m_refresh->setInterval(2000);
        break;
    case TimeWindow::OneHour:
        m_refresh->setInterval(5000);
        break;
    }
}

void ChartsView::refreshNow()
{
    const qint64 now = m_lastSampleMs > 0 ? m_lastSampleMs : QDateTime::currentMSecsSinceEpoch();
    const WindowSpec spec = windowSpec(m_window);
    double maxY[ChartCount] = {0, 0, 0, 0, 0};
    for (const QString &id : std::as_const(m_order)) {
        Line *l = m_lines.value(id);
        const QList<QPointF> points = l->history.points(m_window, now);
        l->series->replace(points);
        if (!l->series->isVisible())
            continue;
        for (const QPointF &p : points)
            maxY[int(l->chart)] = std::max(maxY[int(l->chart)], p.y());
    }
    const double minimum[ChartCount] = {4, 1, 1, 4, 100};
    for (int i = 0; i < ChartCount; ++i) {
        Panel &p = m_panels[i];
        p.x->setRange(QDateTime::fromMSecsSinceEpoch(now - spec.spanMs), QDateTime::fromMSecsSinceEpoch(now));
        p.y->setRange(0, niceMaximum(maxY[i], minimum[i]));
    }
    m_dirty = false;
}

bool ChartsView::exportPng(const QString &path) const
{
    return m_pages->currentWidget()->grab().save(path, "PNG");
}

bool ChartsView::exportCsv(const QString &path, QString *error) const
{
    if (m_pages->currentWidget() == m_historyCharts)
        return m_historyCharts->exportCsv(path, error); // the buckets shown

    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = f.errorString();
        return false;
    }
    const qint64 now = m_lastSampleMs > 0 ? m_lastSampleMs : QDateTime::currentMSecsSinceEpoch();
    QByteArray out = "series,time,value\n";
    for (const QString &id : m_order) {
        const Line *l = m_lines.value(id);
        QString quoted = id;
        if (quoted.contains(u',') || quoted.contains(u'"'))
            quoted = u'"' % quoted.replace(u'"', u"\"\""_s) % u'"';
        for (const QPointF &p : l->history.points(m_window, now)) {
            out += quoted.toUtf8() + ',' +
                   QDateTime::fromMSecsSinceEpoch(qint64(p.x()), Qt::UTC)
                       .toString(Qt::ISODateWithMs)
                       .toLatin1() +
                   ',' + QByteArray::number(p.y(), 'g', 6) + '\n';
        }
    }
    f.write(out);
    if (!f.commit()) {
        if (error)
            *error = f.errorString();
        return false;
    }
    return true;
}

void ChartsView::exportPngInteractive()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export charts as PNG"),
                                                      u"switchyard-charts.png"_s, tr("PNG images (*.png)"));
    if (!path.isEmpty() && !exportPng(path))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1.").arg(path));
}

void ChartsView::exportCsvInteractive()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart data as CSV"),
                                                      u"switchyard-charts.csv"_s, tr("CSV files (*.csv)"));
    QString error;
    if (!path.isEmpty() && !exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
}

} // namespace switchyard::ui
