#include "bench/benchmarksweepcharts.h"

#include "chartaxis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// Distinct, print-friendly colours; a target keeps its colour in both charts.
const QColor Palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                          QColor(0xff, 0x7f, 0x0e), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                          QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};

QChart *makeChart(const QString &title)
{
    auto *chart = new QChart();
    // Animations replay on every update and would make a screenshot show half-drawn lines.
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitle(title);
    QFont f = chart->titleFont();
    f.setBold(true);
    chart->setTitleFont(f);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QLineSeries *makeLine(const QString &name, int colour, bool compared)
{
    auto *s = new QLineSeries();
    s->setName(name);
    s->setPointsVisible(true);
    QPen pen(Palette[colour % std::size(Palette)]);
    // Earlier lines are drawn wider: two nodes that measure the same still show both colours.
    pen.setWidthF(2.0 + 1.2 * std::max(0, 2 - colour));
    if (compared)
        pen.setStyle(Qt::DashLine);
    s->setPen(pen);
    return s;
}

} // namespace

BenchmarkSweepCharts::BenchmarkSweepCharts(QWidget *parent)
    : QWidget(parent), m_note(new QLabel(this)), m_throughput(makeChart(tr("Throughput vs. concurrency"))),
      m_latency(makeChart(tr("Latency vs. concurrency")))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_note->setObjectName(u"benchChartNote"_s);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);
    for (QChart *chart : {m_throughput, m_latency}) {
        auto *view = new QChartView(chart, this); // the view owns its chart
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(300, 200);
        layout->addWidget(view, 1);
    }
}

void BenchmarkSweepCharts::showRuns(const QList<bench::BenchmarkResults> &runs)
{
    clear();
    const Lines lines = makeLines(runs);
    if (lines.series.isEmpty() && showSingles(runs))
        return;
    addAxes(lines);
    addSeries(lines);
    setTitles(runs, lines);
}

void BenchmarkSweepCharts::clear()
{
    for (QChart *chart : {m_throughput, m_latency}) {
        chart->removeAllSeries();
        for (QAbstractAxis *axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
    }
}

BenchmarkSweepCharts::Lines BenchmarkSweepCharts::makeLines(const QList<bench::BenchmarkResults> &runs)
{
    Lines out;
    QHash<QString, int> colourOf;
    for (int r = 0; r < runs.size(); ++r) {
        for (const bench::TargetResult &t : runs[r].targets) {
            if (t.sweep.isEmpty())
                continue;
            const int colour = colourOf.value(t.target.label, int(colourOf.size()));
            colourOf.insert(t.target.label, colour);
            QLineSeries *rate = makeLine(t.target.label, colour, r > 0);
            QLineSeries *latency = makeLine(t.target.label, colour, r > 0);
            for (const bench::ConcurrencyResult &c : t.sweep) {
                out.sweepTokens = c.maxTokens;
                out.maxLevel = std::max(out.maxLevel, c.concurrency);
                rate->append(c.concurrency, c.effectiveTokensPerSecond);
                out.maxRate = std::max(out.maxRate, c.effectiveTokensPerSecond);
                if (c.succeeded > 0) {
                    latency->append(c.concurrency, c.latency.mean / 1000.0);
                    out.maxLatency = std::max(out.maxLatency, c.latency.mean / 1000.0);
                }
            }
            out.series << qMakePair(rate, latency);
        }
    }
    return out;
}

void BenchmarkSweepCharts::addAxes(const Lines &lines)
{
    for (QChart *chart : {m_throughput, m_latency}) {
        // Concurrency doubles from level to level: a log₂ axis spaces the points evenly.
        auto *x = new QLogValueAxis(chart);
        x->setBase(2);
        x->setLabelFormat(u"%g"_s);
        x->setRange(1, std::max(2, lines.maxLevel));
        x->setMinorTickCount(0);
        x->setTitleText(tr("parallel requests"));
        auto *y = new QValueAxis(chart);
        y->setLabelFormat(u"%g"_s);
        y->setTickCount(5);
        const bool rate = chart == m_throughput;
        // 8 % above the highest point (the live Charts view leaves 10 %); a run with nothing measured still
        // gets a readable axis.
        const double top = rate ? std::max(lines.maxRate, 1.0) : std::max(lines.maxLatency, 0.001);
        y->setRange(0, niceMaximum(top, 1e-9, 1.08));
        y->setTitleText(rate ? tr("tokens/s") : tr("seconds")); // short: the axis is as long as the chart is high
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        chart->legend()->setVisible(!lines.series.isEmpty());
    }
}

void BenchmarkSweepCharts::addSeries(const Lines &lines)
{
    for (const auto &[rate, latency] : lines.series) {
        m_throughput->addSeries(rate);
        m_latency->addSeries(latency);
        for (QChart *chart : {m_throughput, m_latency}) {
            QLineSeries *s = chart == m_throughput ? rate : latency;
            for (QAbstractAxis *axis : chart->axes())
                s->attachAxis(axis);
            // The compared run's lines share their target's colour: one legend entry per target is
            // enough, and the title says which run the dashed lines are.
            if (s->pen().style() == Qt::DashLine) {
                for (QLegendMarker *m : chart->legend()->markers(s))
                    m->setVisible(false);
            }
        }
    }
}

void BenchmarkSweepCharts::setTitles(const QList<bench::BenchmarkResults> &runs, const Lines &lines)
{
    m_throughput->setTitle(tr("Throughput vs. concurrency"));
    m_latency->setTitle(tr("Latency vs. concurrency"));
    if (lines.series.isEmpty()) {
        m_note->setText(runs.isEmpty() ? tr("A run's sweep is plotted here: where each target saturates. The "
                                            "article's suite plots its single requests.")
                                       : tr("Nothing to plot: this run measured neither a sweep nor single "
                                            "requests."));
        return;
    }
    QString note = lines.sweepTokens > 0
                       ? tr("Concurrency sweep, %1 tokens per request, a line per target: throughput of all "
                            "requests together, average latency.")
                             .arg(lines.sweepTokens)
                       : tr("Concurrency sweep, a line per target: throughput of all requests together, average "
                            "latency.");
    if (runs.size() > 1)
        note += u' ' % tr("Dashed: the run of %1.").arg(runs[1].startedAt.toLocalTime().toString(u"HH:mm"_s));
    m_note->setText(note);
}

bool BenchmarkSweepCharts::showSingles(const QList<bench::BenchmarkResults> &runs)
{
    // The answer lengths measured, in order, and a bar set per target (and run).
    QList<int> lengths;
    for (const bench::BenchmarkResults &run : runs) {
        for (const bench::TargetResult &t : run.targets) {
            for (const bench::SingleResult &s : t.singles) {
                if (!lengths.contains(s.maxTokens))
                    lengths << s.maxTokens;
            }
        }
    }
    if (lengths.isEmpty())
        return false;
    std::sort(lengths.begin(), lengths.end());
    QStringList categories;
    for (int tokens : std::as_const(lengths))
        categories << tr("%1 tokens").arg(tokens);

    auto *rates = new QBarSeries();
    auto *latencies = new QBarSeries();
    double maxRate = 0;
    double maxLatency = 0;
    QHash<QString, int> colourOf;
    for (int r = 0; r < runs.size(); ++r) {
        for (const bench::TargetResult &t : runs[r].targets) {
            if (t.singles.isEmpty())
                continue;
            const int colour = colourOf.value(t.target.label, int(colourOf.size()));
            colourOf.insert(t.target.label, colour);
            QColor c = Palette[colour % std::size(Palette)];
            if (r > 0)
                c.setAlpha(110); // the compared run: the same colour, paler
            const QString name = r > 0 ? tr("%1 (%2)").arg(t.target.label,
                                                           runs[r].startedAt.toLocalTime().toString(u"HH:mm"_s))
                                       : t.target.label;
            auto *rate = new QBarSet(name);
            auto *latency = new QBarSet(name);
            for (QBarSet *set : {rate, latency}) {
                set->setColor(c);
                set->setBorderColor(c);
            }
            for (int tokens : std::as_const(lengths)) {
                double tokensPerSecond = 0;
                double seconds = 0;
                for (const bench::SingleResult &s : t.singles) {
                    if (s.maxTokens == tokens && s.succeeded > 0) {
                        tokensPerSecond = s.tokensPerSecond;
                        seconds = s.latency.mean / 1000.0;
                    }
                }
                rate->append(tokensPerSecond);
                latency->append(seconds);
                maxRate = std::max(maxRate, tokensPerSecond);
                maxLatency = std::max(maxLatency, seconds);
            }
            rates->append(rate);
            latencies->append(latency);
        }
    }
    const struct
    {
        QChart *chart;
        QBarSeries *series;
        double top;
        QString unit;
    } charts[] = {{m_throughput, rates, std::max(maxRate, 1.0), tr("tokens/s")},
                  {m_latency, latencies, std::max(maxLatency, 0.001), tr("seconds")}};
    for (const auto &c : charts) {
        c.chart->addSeries(c.series);
        auto *x = new QBarCategoryAxis(c.chart);
        x->append(categories);
        auto *y = new QValueAxis(c.chart);
        y->setLabelFormat(u"%g"_s);
        y->setTickCount(5);
        y->setRange(0, niceMaximum(c.top, 1e-9, 1.08));
        y->setTitleText(c.unit);
        c.chart->addAxis(x, Qt::AlignBottom);
        c.chart->addAxis(y, Qt::AlignLeft);
        c.series->attachAxis(x);
        c.series->attachAxis(y);
        c.chart->legend()->setVisible(true);
    }
    m_throughput->setTitle(tr("Throughput by answer length"));
    m_latency->setTitle(tr("Latency by answer length"));
    QString note = tr("Single requests (no sweep in this run), a bar per target and answer length: throughput "
                      "of one request, average latency.");
    if (runs.size() > 1)
        note += u' ' % tr("Paler: the run of %1.").arg(runs[1].startedAt.toLocalTime().toString(u"HH:mm"_s));
    m_note->setText(note);
    return true;
}

QString BenchmarkSweepCharts::noteText() const
{
    return m_note->text();
}

} // namespace switchyard::ui
