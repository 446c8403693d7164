#include "historycharts.h"

#include "chartaxis.h"
#include "chartpalette.h"
#include "history/rollupcsv.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
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
    : QWidget(parent), m_splitBox(new QComboBox(this)), m_status(new QLabel(this)), m_timer(new QTimer(this)),
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

    m_splitBox->setObjectName(u"historySplit"_s);
    m_splitBox->addItem(tr("The whole gateway"), int(history::RollupSplit::None));
    m_splitBox->addItem(tr("Each node"), int(history::RollupSplit::Node));
    m_splitBox->addItem(tr("Each model"), int(history::RollupSplit::Model));
    m_splitBox->addItem(tr("Each key"), int(history::RollupSplit::Key));
    connect(m_splitBox, &QComboBox::activated, this,
            [this](int index) { setSplit(history::RollupSplit(m_splitBox->itemData(index).toInt())); });
    auto *top = new QHBoxLayout();
    auto *splitLabel = new QLabel(tr("Lines for:"), this);
    splitLabel->setBuddy(m_splitBox);
    top->addWidget(splitLabel);
    top->addWidget(m_splitBox);
    top->addWidget(m_status, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
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

void HistoryCharts::setSplit(history::RollupSplit split)
{
    m_split = split;
    m_splitBox->setCurrentIndex(m_splitBox->findData(int(split)));
    m_points.clear();
    redraw();
    refresh();
}

void HistoryCharts::refresh()
{
    const SpanSpec spec = specOf(m_span);
    history::RollupQuery q;
    q.split = m_split;
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
    const bool split = m_shownQuery.split != history::RollupSplit::None && !m_points.empty();
    // Split points come series by series (history/historystore): a new group starts a new series.
    QStringList groups;
    QHash<QString, QString> names; // split by key: id → the key's name
    QList<QList<QPointF>> requests(1), errors(1), tokens(1), latency(1), ttft(1);
    for (const history::RollupPoint &p : m_points) {
        if (split && (groups.isEmpty() || groups.constLast() != p.group)) {
            groups << p.group;
            if (!p.groupName.isEmpty())
                names.insert(p.group, p.groupName);
            if (groups.size() > 1) {
                requests.append(QList<QPointF>());
                tokens.append(QList<QPointF>());
                latency.append(QList<QPointF>());
            }
        }
        // Each bucket drawn at its middle: the sums are of the whole bucket.
        const double x = double(p.bucketStartMs) + bucketSeconds * 500.0;
        requests.last().append({x, double(p.requests) / bucketSeconds});
        tokens.last().append({x, double(p.completionTokens) / bucketSeconds});
        if (p.requests > 0)
            latency.last().append({x, p.meanDurationMs / 1000.0});
        if (!split) {
            errors.last().append({x, double(p.errors) / bucketSeconds});
            if (p.meanTtftMs >= 0)
                ttft.last().append({x, p.meanTtftMs / 1000.0});
        }
    }
    showGroups(split ? groups : QStringList(), names);
    const QString whole[3] = {u"requests"_s, u"tokens"_s, u"latency"_s};
    const QList<QList<QPointF>> *perPanel[3] = {&requests, &tokens, &latency};
    for (int i = 0; i < 3; ++i) {
        m_series.value(whole[i])->replace(split ? QList<QPointF>() : perPanel[i]->first());
        m_series.value(whole[i])->setVisible(!split);
    }
    m_series.value(u"errors"_s)->replace(errors.first());
    m_series.value(u"errors"_s)->setVisible(!split);
    m_series.value(u"ttft"_s)->replace(ttft.first());
    m_series.value(u"ttft"_s)->setVisible(!split);
    for (qsizetype g = 0; split && g < groups.size(); ++g) {
        for (int i = 0; i < 3; ++i)
            m_series.value(whole[i] % u':' % groups[g])->replace((*perPanel[i])[g]);
    }

    const qint64 to = m_points.empty() ? m_nowMs() : m_shownQuery.toMs;
    const qint64 from = to - spec.spanMs;
    const QList<QList<QPointF>> *lines[3][2] = {{&requests, &errors}, {&tokens, nullptr}, {&latency, &ttft}};
    const double minimum[3] = {1, 4, 1};
    for (int i = 0; i < 3; ++i) {
        double top = 0;
        for (const QList<QList<QPointF>> *series : lines[i]) {
            if (!series)
                continue;
            for (const QList<QPointF> &l : *series) {
                for (const QPointF &pt : l)
                    top = std::max(top, pt.y());
            }
        }
        m_panels[i].x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));
        m_panels[i].y->setRange(0, niceMaximum(top, minimum[i]));
    }
}

QString HistoryCharts::groupLabel(const QString &group) const
{
    if (group == u"(other)"_s)
        return tr("all others");
    if (group.isEmpty())
        return m_shownQuery.split == history::RollupSplit::Key ? tr("no key") : tr("(none)");
    // A key by its name; when another key shown has the same name, with the start of its id too
    // ("vk_2f9a…": enough to tell them apart in a legend, where the whole id would be cut off).
    const QString name = m_groupNames.value(group);
    if (name.isEmpty())
        return group;
    const auto sameName = std::count_if(m_groupNames.cbegin(), m_groupNames.cend(),
                                        [&name](const QString &other) { return other == name; });
    return sameName > 1 ? u"%1 (%2…)"_s.arg(name, group.left(7)) : name;
}

void HistoryCharts::showGroups(const QStringList &groups, const QHash<QString, QString> &names)
{
    if (groups == m_groups && names == m_groupNames)
        return;
    const QString ids[3] = {u"requests"_s, u"tokens"_s, u"latency"_s};
    for (const QString &g : std::as_const(m_groups)) {
        for (const QString &id : ids) {
            QXYSeries *s = m_series.take(id % u':' % g);
            s->chart()->removeSeries(s);
            delete s;
        }
    }
    m_groups = groups;
    m_groupNames = names;
    for (qsizetype g = 0; g < groups.size(); ++g) {
        // The live charts' colours, in the order of the busiest; "all others" in grey.
        const QColor color = groups[g] == u"(other)"_s ? QColor(0x7f, 0x7f, 0x7f) : seriesColor(int(g));
        for (int i = 0; i < 3; ++i)
            addLine(m_panels[i], ids[i] % u':' % groups[g], groupLabel(groups[g]), color, i == 2);
    }
}

bool HistoryCharts::exportCsv(const QString &path, QString *error) const
{
    const QByteArray out = history::rollupsCsv(m_points, m_shownQuery.split);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(out) < 0 || !f.commit()) {
        if (error)
            *error = f.errorString();
        return false;
    }
    return true;
}

} // namespace switchyard::ui
