#include "multiturnrunner.h"

#include "benchexchange.h"
#include "upstream/upstreamconnection.h"

#include <QTimer>
#include <QUuid>

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

struct MultiTurnRunner::Conversation
{
    int index = 0;
    int turn = 0;
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    upstream::UpstreamConnection *connection = nullptr; // owned; reused from turn to turn
    std::unique_ptr<BenchExchange> exchange;
    bool retried = false; // this turn was already sent again on a fresh connection
};

MultiTurnRunner::MultiTurnRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<switchyard::bench::MultiTurnRun>();
}

MultiTurnRunner::~MultiTurnRunner()
{
    m_running = false;
    abortAll();
}

bool MultiTurnRunner::start(const MultiTurnPlan &plan)
{
    if (m_running) {
        m_lastError = u"a benchmark is already running"_s;
        return false;
    }
    if (!benchEndpoint(plan.target.baseUrl)) {
        m_lastError = u"not an http(s) URL: "_s % plan.target.baseUrl;
        return false;
    }
    if (plan.conversations < 1 || plan.turns < 1 || plan.concurrency < 1 || plan.maxTokens < 1) {
        m_lastError = u"conversations, turns, concurrency and max tokens must be at least 1"_s;
        return false;
    }
    m_lastError.clear();
    m_plan = plan;
    if (m_plan.runTag.isEmpty())
        m_plan.runTag = QUuid::createUuid().toString(QUuid::Id128).left(8);
    m_run = MultiTurnRun();
    m_run.plan = m_plan;
    m_nextConversation = 0;
    m_done = 0;
    ++m_generation;
    m_running = true;
    m_clock.start();
    emit progress(0, m_plan.totalRequests(), m_plan.target.label);
    QMetaObject::invokeMethod(
        this,
        [this, generation = m_generation] {
            if (m_generation == generation)
                startConversations();
        },
        Qt::QueuedConnection);
    return true;
}

void MultiTurnRunner::startConversations()
{
    while (m_running && int(m_active.size()) < m_plan.concurrency &&
           m_nextConversation < m_plan.conversations) {
        auto c = std::make_unique<Conversation>();
        c->index = m_nextConversation++;
        c->messages.push_back(
            {{"role", "system"},
             {"content", multiTurnSystemPrompt(m_plan.runTag, m_plan.systemPromptTokens).toStdString()}});
        Conversation &ref = *c;
        m_active.push_back(std::move(c));
        sendTurn(ref, false);
    }
    if (m_running && m_active.empty())
        finishRun();
}

void MultiTurnRunner::sendTurn(Conversation &c, bool retry)
{
    if (!retry) {
        // A new turn: the question joins the history. (A retry sends the same turn again.)
        c.messages.push_back(
            {{"role", "user"},
             {"content",
              multiTurnQuestion(m_plan.runTag, c.index, c.turn, m_plan.questionTokens).toStdString()}});
        c.retried = false;
    }
    if (retry || !c.connection || !c.connection->isReusable()) {
        if (c.connection) {
            c.connection->abort();
            c.connection->deleteLater();
        }
        auto endpoint = benchEndpoint(m_plan.target.baseUrl);
        endpoint->pinnedSha256 = m_plan.target.pinnedSha256;
        c.connection = new upstream::UpstreamConnection(*endpoint, this);
    }
    const auto endpoint = benchEndpoint(m_plan.target.baseUrl);
    const std::string messages =
        c.messages.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    QByteArray request = buildConversationRequest(
        *endpoint, m_plan.target.model, m_plan.target.apiKey, QByteArray::fromStdString(messages),
        multiTurnAnswerTokens(m_plan.maxTokens, c.index, c.turn), m_plan.ignoreEos,
        multiTurnSessionKey(m_plan.runTag, c.index));
    bury(std::move(c.exchange));
    Conversation *raw = &c;
    auto done = [this, raw, generation = m_generation](BenchExchange *) {
        // Out of the exchange's own call stack; a conversation of an ended run is gone by then.
        QMetaObject::invokeMethod(
            this,
            [this, raw, generation] {
                if (m_running && m_generation == generation)
                    turnDone(raw);
            },
            Qt::QueuedConnection);
    };
    c.exchange = std::make_unique<BenchExchange>(BenchExchange::Kind::Chat, std::move(request),
                                                 m_plan.requestTimeoutMs, done);
    c.exchange->setKeepText(true);
    c.exchange->start(c.connection);
}

void MultiTurnRunner::turnDone(Conversation *c)
{
    const BenchExchange &ex = *c->exchange;
    if (!ex.sample().ok && ex.staleConnectionFailure() && !c->retried) {
        // The server closed the idle connection as we reused it: once more on a fresh one.
        sendTurn(*c, true);
        c->retried = true;
        return;
    }
    TurnSample t;
    t.conversation = c->index;
    t.turn = c->turn;
    t.messages = int(c->messages.size());
    t.sample = ex.sample();
    m_run.samples.append(t);
    ++m_done;
    // The answer joins the history even when empty, so later turns still grow by their questions.
    c->messages.push_back(
        {{"role", "assistant"}, {"content", ex.sample().ok ? ex.text().toStdString() : std::string()}});
    emit progress(m_done, m_plan.totalRequests(),
                  tr("%1 · conversation %2, turn %3 of %4")
                      .arg(m_plan.target.label)
                      .arg(c->index + 1)
                      .arg(c->turn + 1)
                      .arg(m_plan.turns));
    if (++c->turn < m_plan.turns) {
        sendTurn(*c, false);
        return;
    }
    endConversation(c);
    startConversations();
}

void MultiTurnRunner::endConversation(Conversation *c)
{
    for (auto it = m_active.begin(); it != m_active.end(); ++it) {
        if (it->get() != c)
            continue;
        if (c->connection) {
            c->connection->abort();
            c->connection->deleteLater();
        }
        bury(std::move(c->exchange));
        m_active.erase(it);
        return;
    }
}

void MultiTurnRunner::finishRun()
{
    m_running = false;
    m_run.wallMs = double(m_clock.nsecsElapsed()) / 1e6;
    summarizeMultiTurn(m_run);
    emit finished(m_run);
}

void MultiTurnRunner::cancel()
{
    if (!m_running)
        return;
    m_running = false;
    abortAll();
    m_run.wallMs = double(m_clock.nsecsElapsed()) / 1e6;
    summarizeMultiTurn(m_run);
    emit cancelled(m_run);
}

void MultiTurnRunner::abortAll()
{
    for (auto &c : m_active) {
        if (c->exchange)
            c->exchange->abort();
        if (c->connection)
            c->connection->deleteLater();
        bury(std::move(c->exchange));
    }
    m_active.clear();
}

void MultiTurnRunner::bury(std::unique_ptr<BenchExchange> exchange)
{
    if (!exchange)
        return;
    m_graveyard.push_back(std::move(exchange));
    if (m_graveyardScheduled)
        return;
    m_graveyardScheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_graveyardScheduled = false;
        m_graveyard.clear();
    });
}

} // namespace switchyard::bench
