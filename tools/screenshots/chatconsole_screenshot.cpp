// Renders the chat console after real exchanges with the demo's nodes (vllm-server1/2 serving
// nemotron-3-super at the article's speed, here with reasoning on) and saves it as a PNG; with a second
// path, also the console showing an opened chat file with Markdown (code block) and a failed reply:
// and with a third, the console once the gateway is off:
//   chatconsole_screenshot docs/screenshots/chat.png docs/screenshots/chat-saved.png docs/screenshots/chat-off.png
// Runs offscreen by default; takes about 30 s because the nodes answer at ~15 tok/s like the article's.
#include "chat/chatconsole.h"
#include "chat/conversation.h"
#include "chat/messagewidget.h"
#include "config/configloader.h"
#include "gateway.h"
#include "simnode/simnode.h"

#include <QApplication>
#include <QEventLoop>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <vector>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;

namespace {

bool waitFor(const std::function<bool()> &condition, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!condition()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    return true;
}

// Written as the console saves chats; the texts are what an operator might have asked and got.
const char SavedChat[] = R"json({
  "format": "switchyard-chat", "version": 1, "model": "nemotron-3-super",
  "system_prompt": "You help operators run vLLM.", "temperature": 0.2, "max_tokens": 1024,
  "messages": [
    {"role": "user", "content": "How do I check that a node answers, from the shell?"},
    {"role": "assistant", "model": "nemotron-3-super", "state": "complete",
     "content": "Ask it for a **one-token** completion through the gateway:\n\n```bash\ncurl -s http://127.0.0.1:8080/v1/chat/completions \\\n  -H 'Content-Type: application/json' \\\n  -d '{\"model\":\"vllm-server1/nemotron-3-super\",\"max_tokens\":1,\n       \"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}'\n```\n\nThen look at:\n\n1. the `X-Switchyard-Node` header: who answered;\n2. the status: `502` means every node failed.",
     "stats": {"node": "vllm-server1", "attempts": 1, "http_status": 200, "ttft_ms": 231, "total_ms": 6120,
               "prompt_tokens": 38, "completion_tokens": 88, "finish_reason": "stop"}},
    {"role": "user", "content": "And if both nodes are down?"},
    {"role": "assistant", "model": "nemotron-3-super", "state": "failed", "content": "",
     "error": "The gateway answered HTTP 502: All 2 attempts failed for the model 'nemotron-3-super': vllm-server1: HTTP 500: Internal Server Error; vllm-server2: HTTP 500: Internal Server Error",
     "stats": {"node": "vllm-server2", "attempts": 2, "http_status": 502, "total_ms": 41}}
  ]
})json";

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"chat.png"_s;

    // The demo's two nodes (app/demofleet.h), with reasoning switched on.
    std::vector<std::unique_ptr<sim::SimNode>> nodes;
    nlohmann::json providers = nlohmann::json::object();
    for (int i = 1; i <= 2; ++i) {
        sim::SimNodeOptions o;
        o.name = u"vllm-server"_s + QString::number(i);
        o.models = {u"nemotron-3-super"_s};
        o.text.reasoningTokens = 36;
        o.text.seed = 11 + i;
        auto node = std::make_unique<sim::SimNode>(o);
        if (!node->start()) {
            std::fprintf(stderr, "node failed to start\n");
            return 1;
        }
        providers[o.name.toStdString()] = {
            {"keys", nlohmann::json::array({{{"name", "s" + std::to_string(i) + "-key"},
                                             {"value", "dummy"},
                                             {"models", nlohmann::json::array({"nemotron-3-super"})},
                                             {"weight", 1}}})},
            {"network_config", {{"base_url", node->baseUrl().toStdString()}, {"default_request_timeout_in_seconds", 120}}},
            {"custom_provider_config",
             {{"base_provider_type", "openai"}, {"allowed_requests", {{"chat_completion", true}, {"text_completion", true}}}}},
        };
        nodes.push_back(std::move(node));
    }
    const std::string json = nlohmann::json{{"providers", providers}, {"switchyard", {{"listen", "127.0.0.1:0"}}}}.dump();
    auto cfg = config::parseConfig(QByteArrayView(json.data(), qsizetype(json.size())));
    if (!cfg) {
        std::fprintf(stderr, "config: %s\n", qPrintable(cfg.error().first().toString()));
        return 1;
    }
    Gateway gateway;
    gateway.applyConfig(*cfg);
    if (auto url = gateway.start(); !url) {
        std::fprintf(stderr, "gateway: %s\n", qPrintable(url.error()));
        return 1;
    }

    ui::ChatConsole console(&gateway);
    console.resize(1040, 780);
    console.show();
    if (!waitFor([&] { return !console.availableModels().isEmpty(); }, 10000)) {
        std::fprintf(stderr, "no models\n");
        return 1;
    }
    console.setSystemPrompt(u"You are a concise assistant for the operators of a small vLLM fleet."_s);
    console.setTemperature(0.7);
    console.setMaxTokens(512);

    auto ask = [&](const QString &text) {
        if (!console.send(text))
            return false;
        return waitFor([&] { return !console.isBusy(); }, 60000);
    };
    if (!ask(u"Which of our two nodes should take the nightly batch jobs?"_s))
        return 1;
    console.openWith(u"vllm-server2/nemotron-3-super"_s);
    if (!ask(u"Answer again, from vllm-server2 only."_s))
        return 1;

    // The last reply's reasoning open, to show it apart from the answer.
    if (ui::MessageWidget *w = console.messageWidget(console.messageCount() - 1))
        w->setReasoningExpanded(true);
    waitFor([] { return false; }, 300); // let layouts settle
    if (auto *scroll = console.findChild<QScrollArea *>(u"chatScroll"_s))
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    waitFor([] { return false; }, 200);

    if (!console.grab().save(out)) {
        std::fprintf(stderr, "cannot save %s\n", qPrintable(out));
        return 1;
    }
    std::printf("saved %s\n", qPrintable(out));

    if (argc > 2) {
        // A chat as a file brings it back (Markdown rendered, the failed turn kept with its message).
        const QString out2 = QString::fromLocal8Bit(argv[2]);
        const auto chat = ui::Conversation::fromJson(SavedChat);
        if (!chat) {
            std::fprintf(stderr, "saved chat: %s\n", qPrintable(chat.error()));
            return 1;
        }
        console.setConversation(*chat);
        waitFor([] { return false; }, 300);
        if (!console.grab().save(out2)) {
            std::fprintf(stderr, "cannot save %s\n", qPrintable(out2));
            return 1;
        }
        std::printf("saved %s\n", qPrintable(out2));
    }
    gateway.stopNow();
    if (argc > 3) {
        // The gateway switched off: the console says so and offers to start it.
        const QString out3 = QString::fromLocal8Bit(argv[3]);
        console.newChat();
        waitFor([] { return false; }, 300);
        if (!console.grab().save(out3)) {
            std::fprintf(stderr, "cannot save %s\n", qPrintable(out3));
            return 1;
        }
        std::printf("saved %s\n", qPrintable(out3));
    }
    return 0;
}
