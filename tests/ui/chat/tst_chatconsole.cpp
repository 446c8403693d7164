// The chat console end to end, offscreen: a real gateway on loopback in front of simulated vLLM nodes,
// the widget driving it as an operator would (model picker, Ctrl+Enter, Stop, New chat, Save/Open).
#include "chat/chatclient.h"
#include "chat/chatconsole.h"
#include "chat/messagewidget.h"
#include "gateway/gatewayfixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QToolButton>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace switchyard::client;
using namespace Qt::Literals::StringLiterals;

namespace {

const QString A = u"a"_s;
const QString B = u"b"_s;

// Sends and waits for the reply's end; returns the reply.
ChatMessage exchange(ChatConsole &console, const QString &text, int timeoutMs = 20000)
{
    QSignalSpy done(&console, &ChatConsole::replyFinished);
    if (!console.send(text)) {
        qWarning() << "send refused";
        return {};
    }
    if (!done.wait(timeoutMs)) {
        qWarning() << "no reply within" << timeoutMs << "ms";
        return {};
    }
    return console.conversation().messages.last();
}

QJsonArray sentMessages(const ChatConsole &console)
{
    return QJsonDocument::fromJson(console.client()->lastRequestBody()).object().value("messages"_L1).toArray();
}

qint64 totalAborts(GatewayFixture &f)
{
    qint64 n = 0;
    for (auto &node : f.nodes)
        n += node->counters().clientAborts;
    return n;
}

} // namespace

class TestChatConsole final : public QObject
{
    Q_OBJECT

private slots:
    void listsPoolAndPinnedModels()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        QCOMPARE(console.availableModels(), (QStringList{u"m1"_s, u"a/m1"_s, u"b/m1"_s}));
        QCOMPARE(console.currentModel(), u"m1"_s); // the pool by default
        QVERIFY(console.gatewayNotice().isEmpty());
        QVERIFY2(console.statusText().contains(f.gateway.listenUrl()), qPrintable(console.statusText()));
        // Asking for the list is not traffic: an idle panel's gateway reads 0 requests (and 0 req/s).
        QSignalSpy refreshed(&console, &ChatConsole::modelsRefreshed);
        console.hide();
        console.show(); // showing the tab asks again
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(f.gateway.snapshot().requestsTotal, qint64(0));
        QVERIFY(f.gateway.recentRequests().isEmpty());
    }

    void streamedReplyArrivesInPiecesAndCompletes()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}, {}, [](sim::SimNodeOptions &o) {
            o.performance.tokensPerSecond = 60; // ~1.5 s: long enough to watch it grow
            o.text.meanOutputTokens = 60;
        }));
        ChatConsole console(&f.gateway);
        console.resize(800, 600);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());

        int deltas = 0;
        connect(console.client(), &ChatClient::contentReceived, this, [&deltas] { ++deltas; });
        // Sample what the widget shows while the reply streams.
        QStringList seen;
        QTimer sampler;
        sampler.setInterval(20);
        connect(&sampler, &QTimer::timeout, this, [&] {
            if (console.isBusy() && console.messageWidget(1)) {
                const QString t = console.messageWidget(1)->renderedText();
                if (!t.isEmpty() && (seen.isEmpty() || seen.last() != t))
                    seen << t;
            }
        });
        sampler.start();
        const ChatMessage r = exchange(console, u"Tell me about rail yards."_s);
        sampler.stop();

        QCOMPARE(r.state, ChatMessage::State::Complete);
        QVERIFY(deltas > 10);
        QVERIFY2(seen.size() >= 3, qPrintable(u"the reply was shown in %1 steps"_s.arg(seen.size())));
        for (int i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i].size() > seen[i - 1].size()); // it grew, it was not re-shown from scratch
        QVERIFY(!r.content.isEmpty());
        QCOMPARE(r.stats.node, A);
        QCOMPARE(r.stats.attempts, 1);
        QCOMPARE(r.stats.httpStatus, 200);
        QCOMPARE(r.stats.finishReason, u"stop"_s);
        QVERIFY(r.stats.ttftMs >= 0);
        QVERIFY(r.stats.totalMs >= r.stats.ttftMs);
        QVERIFY(r.stats.promptTokens > 0);
        QVERIFY(r.stats.completionTokens >= 10);
        QVERIFY(!r.stats.tokensEstimated); // the usage chunk arrived (include_usage)
        QCOMPARE(r.stats.completionTokens, f.node(0).counters().generationTokens);

        MessageWidget *w = console.messageWidget(1);
        QVERIFY(w);
        QCOMPARE(w->renderedText().simplified(), QTextDocumentFragment::fromMarkdown(r.content).toPlainText().simplified());
        const QString meta = w->metaText();
        QVERIFY2(meta.contains(A) && meta.contains(u"tok/s"_s) && meta.contains(u"first token"_s) && meta.contains(u"1 attempt"_s),
                 qPrintable(meta));
        QVERIFY2(meta.contains(QString::number(r.stats.completionTokens)), qPrintable(meta));
        QVERIFY(w->errorText().isEmpty());
    }

    void stopAbortsAtTheNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}, {}, [](sim::SimNodeOptions &o) {
            o.performance.tokensPerSecond = 20;
            o.text.meanOutputTokens = 400; // ~20 s if nobody stops it
        }));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        QSignalSpy done(&console, &ChatConsole::replyFinished);
        QVERIFY(console.send(u"Write a long essay."_s));
        QTRY_VERIFY(!console.conversation().messages.last().content.isEmpty());
        QCOMPARE(f.node(0).counters().running, 1);

        auto *stopButton = console.findChild<QPushButton *>(u"chatStop"_s);
        QVERIFY(stopButton && stopButton->isEnabled());
        stopButton->click();
        QTRY_COMPARE(done.size(), 1);
        QVERIFY(!console.isBusy());
        const ChatMessage r = console.conversation().messages.last();
        QCOMPARE(r.state, ChatMessage::State::Stopped);
        QVERIFY(!r.content.isEmpty());
        QCOMPARE(r.stats.node, A);
        // Every chunk carried the running usage (continuous_usage_stats): the footer has the real
        // prompt tokens and the exact output so far, not "? in" and an estimate.
        QVERIFY(!r.stats.tokensEstimated);
        QVERIFY(r.stats.promptTokens > 0);
        QVERIFY(r.stats.completionTokens > 0);
        // The gateway closed the node's request: the node saw its client go, and stopped generating.
        QTRY_COMPARE(totalAborts(f), 1);
        QTRY_COMPARE(f.node(0).counters().running, 0);
        QVERIFY(console.messageWidget(1)->metaText().contains(u"stopped"_s));
        QVERIFY2(console.messageWidget(1)->metaText().contains(QLocale().toString(r.stats.promptTokens) + u" in / "_s),
                 qPrintable(console.messageWidget(1)->metaText()));
        QVERIFY(!stopButton->isEnabled());

        // Esc stops too (from the message box).
        QVERIFY(console.send(u"Again."_s));
        QTRY_VERIFY(!console.conversation().messages.last().content.isEmpty());
        QTest::keyClick(console.input(), Qt::Key_Escape);
        QTRY_COMPARE(done.size(), 2);
        QTRY_COMPARE(totalAborts(f), 2);
    }

    void pinningReachesTheChosenNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}));
        ChatConsole console(&f.gateway);
        console.show();
        console.openWith(u"b/m1"_s); // before the list arrived: must survive it
        QTRY_VERIFY(!console.availableModels().isEmpty());
        QCOMPARE(console.currentModel(), u"b/m1"_s);
        for (int i = 0; i < 3; ++i) {
            const ChatMessage r = exchange(console, u"ping %1"_s.arg(i));
            QCOMPARE(r.state, ChatMessage::State::Complete);
            QCOMPARE(r.stats.node, B);
            QCOMPARE(r.model, u"b/m1"_s);
        }
        QCOMPARE(f.node(1).counters().requestsReceived, 3);
        QCOMPARE(f.node(0).counters().requestsReceived, 0);

        console.openWith(u"a/m1"_s);
        QCOMPARE(exchange(console, u"now a"_s).stats.node, A);
        QCOMPARE(f.node(0).counters().requestsReceived, 1);
        QCOMPARE(f.node(1).counters().requestsReceived, 3);

        // The pool spreads over both.
        console.openWith(u"m1"_s);
        QStringList nodes;
        for (int i = 0; i < 2; ++i)
            nodes << exchange(console, u"pool %1"_s.arg(i)).stats.node;
        nodes.sort();
        QCOMPARE(nodes, (QStringList{A, B}));
    }

    void gatewayErrorIsShownInTheConversation()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}, {}, [](sim::SimNodeOptions &o) { o.fault = sim::FaultMode::Error500; }));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        const ChatMessage r = exchange(console, u"Anyone there?"_s);
        QCOMPARE(r.state, ChatMessage::State::Failed);
        QCOMPARE(r.stats.httpStatus, 502);
        QVERIFY2(r.error.contains(u"502"_s) && r.error.contains(u"attempts failed"_s) && r.error.contains(A)
                     && r.error.contains(B),
                 qPrintable(r.error));
        const QString shown = console.messageWidget(1)->errorText();
        QVERIFY2(shown.contains(u"All 2 attempts failed"_s), qPrintable(shown));
        QVERIFY(!console.isBusy());

        // A failed turn is not sent as history: the next request carries only the new question.
        for (auto &n : f.nodes)
            n->setFault(sim::FaultMode::Healthy);
        const ChatMessage ok = exchange(console, u"Better now?"_s);
        QCOMPARE(ok.state, ChatMessage::State::Complete);
        const QJsonArray sent = sentMessages(console);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent[0].toObject().value("content"_L1).toString(), u"Better now?"_s);
    }

    void midStreamErrorIsShown()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}, {}, [](sim::SimNodeOptions &o) {
            o.performance.tokensPerSecond = 100;
            o.fault = sim::FaultMode::DropStream;
            o.faultParams.dropAfterTokens = 5;
        }));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        const ChatMessage r = exchange(console, u"Go"_s);
        QCOMPARE(r.state, ChatMessage::State::Failed);
        QVERIFY(!r.content.isEmpty()); // what arrived before the cut stays
        QVERIFY2(r.error.contains(u"mid-stream"_s) || r.error.contains(u"broke off"_s), qPrintable(r.error));
        QVERIFY(!console.messageWidget(1)->errorText().isEmpty());
    }

    void unreachableGatewayIsAnErrorNotSilence()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        // The client on its own, against a port nobody listens on.
        ChatClient client;
        QSignalSpy done(&client, &ChatClient::finished);
        ChatRequest req;
        req.baseUrl = QUrl(u"http://127.0.0.1:1"_s);
        req.model = u"m1"_s;
        QVERIFY(client.send(req));
        QVERIFY(done.wait(10000));
        const auto outcome = done.first().first().value<ChatOutcome>();
        QCOMPARE(outcome.end, ChatOutcome::End::Failed);
        QVERIFY2(outcome.error.contains(u"Cannot reach"_s), qPrintable(outcome.error));
    }

    void talksThroughTheResponsesApi()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        auto *responses = console.findChild<QCheckBox *>(u"chatResponsesApi"_s);
        QVERIFY(responses);
        responses->setChecked(true);
        const ChatMessage first = exchange(console, u"Which track is free?"_s);
        QCOMPARE(first.state, ChatMessage::State::Complete);
        QVERIFY(!first.content.isEmpty());
        QVERIFY(first.stats.completionTokens > 0); // from response.completed
        QVERIFY(first.stats.promptTokens > 0);
        QCOMPARE(first.stats.node, A);
        const QJsonObject body = QJsonDocument::fromJson(console.client()->lastRequestBody()).object();
        QVERIFY(body.contains("input"_L1));
        QVERIFY(!body.contains("messages"_L1));
        // The next turn sends the history as the input: question, reply, question.
        const ChatMessage second = exchange(console, u"And the next one?"_s);
        QCOMPARE(second.state, ChatMessage::State::Complete);
        QCOMPARE(QJsonDocument::fromJson(console.client()->lastRequestBody()).object().value("input"_L1).toArray().size(), 3);
    }

    void historyIsSentOnTheNextTurn()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        console.setSystemPrompt(u"You are a dispatcher."_s);
        const ChatMessage first = exchange(console, u"Which track is free?"_s);
        QCOMPARE(first.state, ChatMessage::State::Complete);
        QCOMPARE(sentMessages(console).size(), 2); // system + question

        const ChatMessage second = exchange(console, u"And after that?"_s);
        QCOMPARE(second.state, ChatMessage::State::Complete);
        const QJsonArray sent = sentMessages(console);
        QCOMPARE(sent.size(), 4);
        QCOMPARE(sent[0].toObject().value("role"_L1).toString(), u"system"_s);
        QCOMPARE(sent[1].toObject().value("content"_L1).toString(), u"Which track is free?"_s);
        QCOMPARE(sent[2].toObject().value("role"_L1).toString(), u"assistant"_s);
        QCOMPARE(sent[2].toObject().value("content"_L1).toString(), first.content);
        QCOMPARE(sent[3].toObject().value("content"_L1).toString(), u"And after that?"_s);
        // The node saw it too: its prompt count grew by about the first answer's length.
        QVERIFY2(second.stats.promptTokens > first.stats.promptTokens + first.stats.completionTokens / 2,
                 qPrintable(u"%1 then %2 (answer %3)"_s.arg(first.stats.promptTokens)
                                .arg(second.stats.promptTokens)
                                .arg(first.stats.completionTokens)));

        // New chat forgets it.
        console.findChild<QPushButton *>(u"chatNew"_s)->click();
        QCOMPARE(console.messageCount(), 0);
        exchange(console, u"Fresh start"_s);
        QCOMPARE(sentMessages(console).size(), 2);
    }

    void reasoningIsShownApartAndCollapsible()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}, {}, [](sim::SimNodeOptions &o) { o.text.reasoningTokens = 30; }));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        const ChatMessage r = exchange(console, u"Think first."_s);
        QCOMPARE(r.state, ChatMessage::State::Complete);
        QVERIFY(!r.reasoning.isEmpty());
        QVERIFY(!r.content.isEmpty());
        QVERIFY(!r.content.contains(r.reasoning));
        MessageWidget *w = console.messageWidget(1);
        QVERIFY(!w->reasoningVisible()); // collapsed once the answer came
        auto *toggle = w->findChild<QToolButton *>(u"chatReasoningToggle"_s);
        QVERIFY(toggle && toggle->isVisibleTo(w));
        toggle->click();
        QVERIFY(w->reasoningVisible());
        auto *pane = w->findChild<QTextBrowser *>(u"chatReasoning"_s);
        QCOMPARE(pane->toPlainText(), r.reasoning);
        toggle->click();
        QVERIFY(!w->reasoningVisible());

        // Reasoning is not sent back.
        exchange(console, u"Next"_s);
        const QJsonArray sent = sentMessages(console);
        QCOMPARE(sent[1].toObject().value("content"_L1).toString(), r.content);
        QVERIFY(!QJsonDocument(sent).toJson().contains("reasoning"));
    }

    void saveAndLoadRoundTrip()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        console.openWith(u"a/m1"_s);
        console.setSystemPrompt(u"Short answers."_s);
        console.setTemperature(0.4);
        console.setMaxTokens(48);
        exchange(console, u"First"_s);
        exchange(console, u"Second"_s);
        const Conversation before = console.conversation();
        QCOMPARE(before.messages.size(), 4);
        QCOMPARE(before.messages[3].stats.completionTokens, 48); // max tokens was sent

        QTemporaryDir dir;
        const QString path = dir.filePath(u"chat.json"_s);
        QString error;
        QVERIFY2(console.saveConversation(path, &error), qPrintable(error));

        console.newChat();
        console.openWith(u"m1"_s);
        console.setSystemPrompt(QString());
        console.setTemperature(std::nullopt);
        console.setMaxTokens(0);
        QCOMPARE(console.messageCount(), 0);

        QVERIFY2(console.loadConversation(path, &error), qPrintable(error));
        const Conversation after = console.conversation();
        QCOMPARE(console.messageCount(), 4);
        QCOMPARE(after.toJson(), before.toJson());
        QCOMPARE(console.currentModel(), u"a/m1"_s);
        QCOMPARE(after.systemPrompt, u"Short answers."_s);
        QVERIFY(after.temperature.has_value());
        QCOMPARE(*after.temperature, 0.4);
        QCOMPARE(after.maxTokens, 48);
        const QString meta = console.messageWidget(3)->metaText(); // the reply's line survives the trip
        QVERIFY2(meta.contains(u"node a"_s) && meta.contains(u"cut at max tokens"_s), qPrintable(meta));
    }

    void gatewayOffSaysSoAndOffersToStart()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}));
        f.gateway.stopNow();
        QVERIFY(!f.gateway.isRunning());
        ChatConsole console(&f.gateway);
        console.show();
        QVERIFY2(console.gatewayNotice().contains(u"off"_s), qPrintable(console.gatewayNotice()));
        QVERIFY(!console.send(u"hello?"_s));
        QCOMPARE(console.messageCount(), 0);
        auto *start = console.findChild<QPushButton *>(u"chatStartGateway"_s);
        QVERIFY(start && start->isVisibleTo(&console));
        start->click(); // nothing connected: the console starts the gateway itself
        QVERIFY(f.gateway.isRunning());
        QVERIFY(console.gatewayNotice().isEmpty());
        QTRY_VERIFY(!console.availableModels().isEmpty());
        QCOMPARE(exchange(console, u"hello!"_s).state, ChatMessage::State::Complete);

        // Stopping it shows the banner again; a main window takes over the start when it connects.
        f.gateway.stopNow();
        QTRY_VERIFY(!console.gatewayNotice().isEmpty());
        QSignalSpy asked(&console, &ChatConsole::startGatewayRequested);
        start->click();
        QCOMPARE(asked.size(), 1);
        QVERIFY(!f.gateway.isRunning());
    }

    void ctrlEnterSendsAndCopyCopies()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}));
        ChatConsole console(&f.gateway);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        QSignalSpy done(&console, &ChatConsole::replyFinished);
        QTest::keyClicks(console.input(), u"Hello there"_s);
        QTest::keyClick(console.input(), Qt::Key_Return); // a plain Enter is a new line
        QVERIFY(!console.isBusy());
        QTest::keyClick(console.input(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(console.isBusy());
        QVERIFY(console.input()->toPlainText().isEmpty());
        QVERIFY(done.wait(20000));
        QCOMPARE(console.conversation().messages.first().content, u"Hello there\n"_s);

        const QString content = console.conversation().messages.last().content;
        auto *copy = console.messageWidget(1)->findChild<QToolButton *>(u"chatCopyButton"_s);
        QVERIFY(copy && copy->isVisibleTo(console.messageWidget(1)));
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), content);
    }

    void longReplyKeepsTheWindowResponsive()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}, {}, [](sim::SimNodeOptions &o) {
            o.performance.tokensPerSecond = 3000;
            o.text.meanOutputTokens = 20000; // always runs into max_tokens
        }));
        ChatConsole console(&f.gateway);
        console.resize(900, 700);
        console.show();
        QTRY_VERIFY(!console.availableModels().isEmpty());
        console.setMaxTokens(6000);
        // A 10 ms ticker on the GUI thread: its longest gap is how long the window was frozen.
        QElapsedTimer clock;
        qint64 last = 0;
        qint64 worst = 0;
        QTimer ticker;
        ticker.setInterval(10);
        connect(&ticker, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            worst = std::max(worst, now - last);
            last = now;
        });
        int deltas = 0;
        connect(console.client(), &ChatClient::contentReceived, this, [&deltas] { ++deltas; });
        clock.start();
        ticker.start();
        const ChatMessage r = exchange(console, u"Write at length."_s, 60000);
        ticker.stop();
        QCOMPARE(r.state, ChatMessage::State::Complete);
        QCOMPARE(r.stats.completionTokens, 6000);
        QVERIFY(deltas > 1000);
        qInfo("longest GUI stall while %d deltas streamed: %lld ms", deltas, worst);
        QVERIFY2(worst < 400, qPrintable(u"the window froze for %1 ms"_s.arg(worst)));
    }
};

QTEST_MAIN(TestChatConsole)
#include "tst_chatconsole.moc"
