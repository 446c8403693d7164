#include "bench/multiturnpanel.h"

#include "bench/benchformat.h"
#include "bench/multiturnformat.h"
#include "bench/multiturnrunner.h"

#include <QApplication>
#include <QClipboard>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>
#include <QUuid>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

MultiTurnPanel::MultiTurnPanel(Targets targets, StrategyLabel strategyLabel, QWidget *parent)
    : QWidget(parent), m_targetsOf(std::move(targets)), m_strategyOf(std::move(strategyLabel)),
      m_thread(new QThread(this)), m_runner(new bench::MultiTurnRunner())
{
    qRegisterMetaType<switchyard::bench::MultiTurnRun>();
    m_thread->setObjectName(u"multiturn"_s);
    m_runner->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_runner, &QObject::deleteLater);
    connect(m_runner, &bench::MultiTurnRunner::progress, this,
            [this](int done, int total, const QString &label) {
                m_status->setText(tr("%1 — %2 of %3 requests").arg(label).arg(done).arg(total));
            });
    connect(m_runner, &bench::MultiTurnRunner::finished, this, &MultiTurnPanel::onEnded);
    connect(m_runner, &bench::MultiTurnRunner::cancelled, this, [this](const bench::MultiTurnRun &run) {
        m_queue.clear();
        onEnded(run);
    });
    m_thread->start();

    m_table = new QTableWidget(this);
    m_table->setObjectName(u"multiTurnTable"_s);
    m_table->setColumnCount(10);
    m_table->setHorizontalHeaderLabels({tr("Strategy"), tr("Target"), tr("Success"), tr("TTFT P50"),
                                        tr("TTFT P95"), tr("Latency P50"), tr("tok/s"), tr("Prefix hits"),
                                        tr("Split per node"), tr("Hit rate per node")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(buildForm());
    layout->addWidget(m_table, 1);
    setRunning(false);
}

MultiTurnPanel::~MultiTurnPanel()
{
    m_runner->disconnect(this);
    QMetaObject::invokeMethod(m_runner, &bench::MultiTurnRunner::cancel, Qt::QueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

QGroupBox *MultiTurnPanel::buildForm()
{
    auto *box = new QGroupBox(tr("Multi-turn conversations"), this);
    auto *form = new QFormLayout(box);
    auto spin = [box](int min, int max, int value, const QString &tip) {
        auto *s = new QSpinBox(box);
        s->setRange(min, max);
        s->setValue(value);
        s->setToolTip(tip);
        return s;
    };
    const bench::MultiTurnPlan d;
    m_conversations = spin(1, 1000, d.conversations, tr("Conversations, each with a session key of its own"));
    m_turns = spin(1, 100, d.turns, tr("Turns per conversation; each sends the whole history"));
    m_parallel = spin(1, 256, d.concurrency, tr("Conversations in flight at once"));
    m_answerTokens = spin(1, 4096, d.maxTokens, tr("Mean max_tokens of an answer (half to 1.5×)"));
    m_systemTokens =
        spin(16, 100000, d.systemPromptTokens, tr("The system prompt every conversation shares"));
    m_questionTokens = spin(0, 100000, d.questionTokens, tr("Log excerpt pasted into each question"));
    form->addRow(tr("Conversations:"), m_conversations);
    form->addRow(tr("Turns:"), m_turns);
    form->addRow(tr("At a time:"), m_parallel);
    form->addRow(tr("Answer tokens:"), m_answerTokens);
    form->addRow(tr("System prompt tokens:"), m_systemTokens);
    form->addRow(tr("Question tokens:"), m_questionTokens);
    m_run = new QPushButton(tr("Run &multi-turn"), box);
    m_run->setObjectName(u"multiTurnRun"_s);
    connect(m_run, &QPushButton::clicked, this, [this] { startRun(); });
    m_cancel = new QPushButton(tr("Cancel"), box);
    connect(m_cancel, &QPushButton::clicked, this, &MultiTurnPanel::cancelRun);
    m_clear = new QPushButton(tr("Clear"), box);
    connect(m_clear, &QPushButton::clicked, this, [this] {
        m_results.runs.clear();
        render();
    });
    auto *copy = new QPushButton(tr("Copy as Markdown"), box);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(markdown()); });
    auto *buttons = new QHBoxLayout();
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    form->addRow(buttons);
    auto *more = new QHBoxLayout();
    more->addWidget(m_clear);
    more->addWidget(copy);
    form->addRow(more);
    m_status = new QLabel(tr("Measures the checked targets as their routing is configured. Change the "
                             "gateway's strategy and run again to compare."),
                          box);
    m_status->setObjectName(u"multiTurnStatus"_s);
    m_status->setWordWrap(true);
    form->addRow(m_status);
    return box;
}

bench::MultiTurnPlan MultiTurnPanel::currentPlan() const
{
    bench::MultiTurnPlan p;
    p.conversations = m_conversations->value();
    p.turns = m_turns->value();
    p.concurrency = m_parallel->value();
    p.maxTokens = m_answerTokens->value();
    p.systemPromptTokens = m_systemTokens->value();
    p.questionTokens = m_questionTokens->value();
    return p;
}

void MultiTurnPanel::setPlanSettings(const bench::MultiTurnPlan &p)
{
    m_conversations->setValue(p.conversations);
    m_turns->setValue(p.turns);
    m_parallel->setValue(p.concurrency);
    m_answerTokens->setValue(p.maxTokens);
    m_systemTokens->setValue(p.systemPromptTokens);
    m_questionTokens->setValue(p.questionTokens);
}

bool MultiTurnPanel::startRun()
{
    if (m_running)
        return false;
    const QList<bench::Target> targets = m_targetsOf ? m_targetsOf() : QList<bench::Target>();
    if (targets.isEmpty()) {
        m_status->setText(tr("Check at least one target."));
        return false;
    }
    m_queue.clear();
    for (const bench::Target &t : targets) {
        bench::MultiTurnPlan p = currentPlan();
        p.target = t;
        p.strategy = m_strategyOf ? m_strategyOf(t) : tr("as configured");
        // Prompts of their own: nothing cached by an earlier run helps this one.
        p.runTag = QUuid::createUuid().toString(QUuid::Id128).left(8);
        m_queue << p;
    }
    if (m_results.runs.isEmpty()) {
        m_results.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        m_results.startedAt = QDateTime::currentDateTimeUtc();
    }
    setRunning(true);
    startNext();
    return true;
}

void MultiTurnPanel::startNext()
{
    if (m_queue.isEmpty()) {
        m_status->setText(tr("Done."));
        setRunning(false);
        return;
    }
    const bench::MultiTurnPlan plan = m_queue.takeFirst();
    QMetaObject::invokeMethod(
        m_runner,
        [runner = m_runner, plan] {
            if (runner->start(plan))
                return;
            bench::MultiTurnRun refused; // a bad URL: the row says why, the next target still runs
            refused.plan = plan;
            refused.error = runner->lastError();
            emit runner->finished(refused);
        },
        Qt::QueuedConnection);
}

void MultiTurnPanel::cancelRun()
{
    if (m_running)
        QMetaObject::invokeMethod(m_runner, &bench::MultiTurnRunner::cancel, Qt::QueuedConnection);
}

void MultiTurnPanel::onEnded(const bench::MultiTurnRun &run)
{
    m_results.runs << run;
    render();
    emit runFinished(run);
    startNext();
}

void MultiTurnPanel::render()
{
    m_table->setRowCount(int(m_results.runs.size()));
    for (int row = 0; row < m_results.runs.size(); ++row) {
        const bench::MultiTurnRun &r = m_results.runs[row];
        QStringList perNode;
        bool reported = !r.nodes.isEmpty();
        for (const bench::NodeShare &n : r.nodes) {
            perNode << (n.node.isEmpty() ? tr("(direct)") : n.node) % u' ' %
                           bench::formatHitRate(n.cachedTokens, n.promptTokens, n.cacheReported);
            reported = reported && n.cacheReported;
        }
        const QStringList cells = {r.plan.strategy,
                                   r.plan.target.label,
                                   bench::formatSuccess(r.succeeded, r.requests),
                                   bench::formatMs(r.ttft.p50),
                                   bench::formatMs(r.ttft.p95),
                                   bench::formatMs(r.latency.p50),
                                   bench::formatRate(r.tokensPerSecond),
                                   bench::formatHitRate(r.cachedTokens, r.promptTokens, reported),
                                   bench::formatSplit(r),
                                   perNode.join(u" · "_s)};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells[col]);
            if (col >= 3 && col <= 7)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, col, item);
        }
    }
}

QString MultiTurnPanel::markdown() const
{
    return bench::formatMultiTurnMarkdown(m_results);
}

void MultiTurnPanel::setRunning(bool running)
{
    const bool changed = m_running != running;
    m_running = running;
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_clear->setEnabled(!running);
    for (QSpinBox *s :
         {m_conversations, m_turns, m_parallel, m_answerTokens, m_systemTokens, m_questionTokens})
        s->setEnabled(!running);
    if (changed)
        emit runningChanged(running);
}

} // namespace switchyard::ui
