#include "historycharts.h"

#include "chartaxis.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QSaveFile>
#include <QScatterSeries>
#include <QTimer>
#include <QValueAxis>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

constexpr qint64 MsPerMinute = 60'000;

struct SpanSpec
{
    qint64 spanMs;
    int bucketMinutes;
    QString axisFormat;
};

SpanSpec specOf(HistoryCharts::Span span)
{
    if (span == HistoryCharts::Span::Week)
        return {7 * 24 * 60 * MsPerMinute, 60, u"ddd HH:mm"_s};
    return {24 * 60 * MsPerMinute, 5, u"HH:mm"_s};
}

} // namespace

HistoryCharts::HistoryCharts(QWidget *parent)
    : QWidget(parent), m_status(new QLabel(this)), m_timer(new QTimer(this)),
      m_nowMs([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    m_status->setObjectName(u"historyChartsStatus"_s);
    m_status->setWordWrap(true);

    auto *row = new QHBoxLayout();
    row->setSpacing(4);
    const QString titles[3] = {tr("Requests/s"), tr("Output tokens/s"), tr("Latency (s)")};
    const QString yTitles[3] = {tr("requests/s"), tr("tokens/s"), tr("seconds")};
    for (int i = 0; i < 3; ++i) {
        m_panels[i] = makePanel(titles[i], yTitles[i]);
        auto *view = new QChartView(m_panels[i].chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(320, 240);
        row->addWidget(view, 1);
    }
    addLine(m_panels[0], u"requests"_s, tr("requests/s"), QColor(0x1f, 0x77, 0xb4), false);
    addLine(m_panels[0], u"errors"_s, tr("failed requests/s (5xx or cut)"), QColor(0xd6, 0x27, 0x28), false);
    addLine(m_panels[1], u"tokens"_s, tr("output tokens/s"), QColor(0x2c, 0xa0, 0x2c), false);
    addLine(m_panels[2], u"latency"_s, tr("mean latency"), QColor(0x94, 0x67, 0xbd), true);
    addLine(m_panels[2], u"ttft"_s, tr("mean time to first token"), QColor(0xff, 0x7f, 0x0e), true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addLayout(row, 1);
    layout->addStretch(0);

    m_timer->setInterval(RefreshIntervalMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
    });
    m_timer->start();
    setSpan(Span::Day);
}

HistoryCharts::Panel HistoryCharts::makePanel(const QString &title, const QString &yTitle)
{
    Panel p;
    p.chart = new QChart();
    p.chart->setAnimationOptions(QChart::NoAnimation);
    p.chart->setTitle(title);
    QFont tf = p.chart->titleFont();
    tf.setBold(true);
    p.chart->setTitleFont(tf);
    p.chart->setMargins(QMargins(2, 2, 2, 2));
    p.chart->legend()->setAlignment(Qt::AlignBottom);
    p.x = new QDateTimeAxis(p.chart);
    p.x->setTickCount(5);
    p.y = new QValueAxis(p.chart);
    p.y->setLabelFormat(u"%g"_s);
    p.y->setTickCount(5);
    p.y->setTitleText(yTitle);
    p.chart->addAxis(p.x, Qt::AlignBottom);
    p.chart->addAxis(p.y, Qt::AlignLeft);
    return p;
}

QXYSeries *HistoryCharts::addLine(Panel &panel, const QString &id, const QString &name, const QColor &color,
                                  bool points)
{
    QXYSeries *s = nullptr;
    if (points) {
        auto *scatter = new QScatterSeries(panel.chart);
        scatter->setMarkerSize(7);
        scatter->setColor(color);
        scatter->setBorderColor(color);
        s = scatter;
    } else {
        s = new QLineSeries(panel.chart);
        QPen pen(color);
        pen.setWidthF(2);
        s->setPen(pen);
    }
    s->setName(name);
    panel.chart->addSeries(s);
    s->attachAxis(panel.x);
    s->attachAxis(panel.y);
    m_series.insert(id, s);
    return s;
}

QXYSeries *HistoryCharts::series(const QString &id) const
{
    return m_series.value(id);
}

void HistoryCharts::setSpan(Span span)
{
    m_span = span;
    const SpanSpec spec = specOf(span);
    for (Panel &p : m_panels)
        p.x->setFormat(spec.axisFormat);
    m_points.clear();
    redraw();
    refresh();
}

void HistoryCharts::refresh()
{
    const SpanSpec spec = specOf(m_span);
    history::RollupQuery q;
    q.toMs = m_nowMs();
    q.fromMs = q.toMs - spec.spanMs;
    q.bucketMinutes = spec.bucketMinutes;
    m_waiting = true;
    if (m_points.empty())
        m_status->setText(tr("Reading the gateway's history\u2026"));
    emit rollupsRequested(++m_ticket, q);
}

void HistoryCharts::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh(); // a minute may have passed since it was last shown
}

void HistoryCharts::showResult(const link::RollupsResult &result)
{
    if (result.ticket != m_ticket || !m_waiting)
        return; // an answer to a question that was replaced since
    m_waiting = false;
    if (!result.ok) {
        m_points.clear();
        m_status->setText(result.error);
        redraw();
        return;
    }
    m_shownQuery = result.query;
    m_points = result.points;
    qint64 requests = 0;
    for (const history::RollupPoint &p : m_points)
        requests += p.requests;
    const SpanSpec spec = specOf(m_span);
    m_status->setText(
        tr("From the gateway's history: %1 requests in the last %2, in %3-minute sums; refreshed every "
           "minute.")
            .arg(QLocale().toString(requests), m_span == Span::Day ? tr("24 hours") : tr("7 days"))
            .arg(spec.bucketMinutes));
    redraw();
}

void HistoryCharts::redraw()
{
    const SpanSpec spec = specOf(m_span);
    const double bucketSeconds = spec.bucketMinutes * 60.0;
    QList<QPointF> requests, errors, tokens, latency, ttft;
    for (const history::RollupPoint &p : m_points) {
        // Each bucket drawn at its middle: the sums are of the whole bucket.
        const double x = double(p.bucketStartMs) + bucketSeconds * 500.0;
        requests.append({x, double(p.requests) / bucketSeconds});
        errors.append({x, double(p.errors) / bucketSeconds});
        tokens.append({x, double(p.completionTokens) / bucketSeconds});
        if (p.requests > 0)
            latency.append({x, p.meanDurationMs / 1000.0});
        if (p.meanTtftMs >= 0)
            ttft.append({x, p.meanTtftMs / 1000.0});
    }
    m_series.value(u"requests"_s)->replace(requests);
    m_series.value(u"errors"_s)->replace(errors);
    m_series.value(u"tokens"_s)->replace(tokens);
    m_series.value(u"latency"_s)->replace(latency);
    m_series.value(u"ttft"_s)->replace(ttft);

    const qint64 to = m_points.empty() ? m_nowMs() : m_shownQuery.toMs;
    const qint64 from = to - spec.spanMs;
    const QList<QPointF> *lines[3][2] = {{&requests, &errors}, {&tokens, nullptr}, {&latency, &ttft}};
    const double minimum[3] = {1, 4, 1};
    for (int i = 0; i < 3; ++i) {
        double top = 0;
        for (const QList<QPointF> *l : lines[i]) {
            if (!l)
                continue;
            for (const QPointF &pt : *l)
                top = std::max(top, pt.y());
        }
        m_panels[i].x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));
        m_panels[i].y->setRange(0, niceMaximum(top, minimum[i]));
    }
}

bool HistoryCharts::exportCsv(const QString &path, QString *error) const
{
    QByteArray out =
        "bucket_start_utc,requests,errors,client_errors,prompt_tokens,completion_tokens,mean_duration_ms,"
        "mean_ttft_ms\r\n";
    for (const history::RollupPoint &p : m_points) {
        out += QDateTime::fromMSecsSinceEpoch(p.bucketStartMs, Qt::UTC).toString(Qt::ISODate).toLatin1() +
               ',' + QByteArray::number(p.requests) + ',' + QByteArray::number(p.errors) + ',' +
               QByteArray::number(p.clientErrors) + ',' + QByteArray::number(p.promptTokens) + ',' +
               QByteArray::number(p.completionTokens) + ',' + QByteArray::number(p.meanDurationMs, 'f', 1) +
               ',' + (p.meanTtftMs < 0 ? QByteArray() : QByteArray::number(p.meanTtftMs, 'f', 1)) + "\r\n";
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(out) < 0 || !f.commit()) {
        if (error)
            *error = f.errorString();
        return false;
    }
    return true;
}

} // namespace switchyard::ui
