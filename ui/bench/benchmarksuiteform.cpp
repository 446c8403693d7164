#include "bench/benchmarksuiteform.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>
#include <algorithm>

namespace switchyard::ui {

BenchmarkSuiteForm::BenchmarkSuiteForm(QWidget *parent)
    : QGroupBox(tr("Suite"), parent), m_suite(new QComboBox(this)), m_repetitions(new QSpinBox(this)),
      m_concurrency(new QSpinBox(this)), m_sweepMax(new QComboBox(this)), m_sweepTokens(new QSpinBox(this)),
      m_warmup(new QSpinBox(this)), m_api(new QComboBox(this))
{
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_suite->setObjectName(QStringLiteral("benchSuite"));
    // The suite that repeats the tables of the article Switchyard started from (`--suite article`).
    m_suite->addItem(tr("Article's tables: 20/100/300 tokens + parallel"), int(bench::Suite::Article));
    m_suite->addItem(tr("Concurrency sweep"), int(bench::Suite::Sweep));
    m_suite->addItem(tr("Article's tables + sweep"), int(bench::Suite::Full));
    m_suite->setCurrentIndex(2);
    connect(m_suite, &QComboBox::currentIndexChanged, this, &BenchmarkSuiteForm::updateEnabled);
    form->addRow(tr("Suite:"), m_suite);

    m_repetitions->setRange(1, 100);
    m_repetitions->setValue(3);
    m_repetitions->setToolTip(tr("Sequential requests per max_tokens value (20, 100, 300)"));
    form->addRow(tr("Repetitions:"), m_repetitions);
    m_concurrency->setRange(1, 512);
    m_concurrency->setValue(5);
    m_concurrency->setToolTip(tr("Parallel requests of the concurrency test (the article's tables use 5, 20 tokens each)"));
    form->addRow(tr("Parallel:"), m_concurrency);
    for (int level : {8, 16, 32, 64, 128, 256})
        m_sweepMax->addItem(QString::number(level), level);
    m_sweepMax->setCurrentIndex(3);
    m_sweepMax->setToolTip(tr("The sweep doubles the parallel requests from 1 up to this"));
    form->addRow(tr("Sweep up to:"), m_sweepMax);
    m_sweepTokens->setRange(1, 4096);
    m_sweepTokens->setValue(32);
    m_sweepTokens->setToolTip(tr("max_tokens of every sweep request"));
    form->addRow(tr("Sweep tokens:"), m_sweepTokens);
    m_warmup->setRange(0, 20);
    m_warmup->setValue(1);
    m_warmup->setToolTip(tr("Requests per target sent first and not counted (connections, caches)"));
    form->addRow(tr("Warm-up:"), m_warmup);
    m_api->setObjectName(QStringLiteral("benchApi"));
    m_api->addItem(tr("Chat Completions"), int(bench::Api::ChatCompletions));
    m_api->addItem(tr("Responses"), int(bench::Api::Responses));
    m_api->setToolTip(tr("The API the requests speak: POST /v1/chat/completions, or POST /v1/responses (which "
                         "vLLM serves; it has no ignore_eos, so a model may stop before max_tokens)"));
    form->addRow(tr("API:"), m_api);
    updateEnabled();
}

void BenchmarkSuiteForm::applyTo(bench::BenchmarkPlan &plan) const
{
    plan.suite = bench::Suite(m_suite->currentData().toInt());
    plan.repetitions = m_repetitions->value();
    plan.concurrency = m_concurrency->value();
    plan.sweepLevels.clear();
    for (int level = 1; level <= m_sweepMax->currentData().toInt(); level *= 2)
        plan.sweepLevels << level;
    plan.sweepMaxTokens = m_sweepTokens->value();
    plan.warmupRequests = m_warmup->value();
    plan.api = bench::Api(m_api->currentData().toInt());
}

void BenchmarkSuiteForm::setFrom(const bench::BenchmarkPlan &plan)
{
    const int suite = m_suite->findData(int(plan.suite));
    if (suite >= 0)
        m_suite->setCurrentIndex(suite);
    m_repetitions->setValue(plan.repetitions);
    m_concurrency->setValue(plan.concurrency);
    if (!plan.sweepLevels.isEmpty()) {
        const int top = m_sweepMax->findData(plan.sweepLevels.last());
        if (top >= 0)
            m_sweepMax->setCurrentIndex(top);
    }
    m_sweepTokens->setValue(plan.sweepMaxTokens);
    m_warmup->setValue(plan.warmupRequests);
    m_api->setCurrentIndex(std::max(0, m_api->findData(int(plan.api))));
}

void BenchmarkSuiteForm::setRunning(bool running)
{
    m_running = running;
    m_suite->setEnabled(!running);
    m_warmup->setEnabled(!running);
    m_api->setEnabled(!running);
    updateEnabled();
}

void BenchmarkSuiteForm::updateEnabled()
{
    const auto suite = bench::Suite(m_suite->currentData().toInt());
    const bool article = suite == bench::Suite::Article || suite == bench::Suite::Full;
    const bool sweep = suite == bench::Suite::Sweep || suite == bench::Suite::Full;
    m_repetitions->setEnabled(!m_running && article);
    m_concurrency->setEnabled(!m_running && article);
    m_sweepMax->setEnabled(!m_running && sweep);
    m_sweepTokens->setEnabled(!m_running && sweep);
}

} // namespace switchyard::ui
