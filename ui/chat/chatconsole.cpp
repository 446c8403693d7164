#include "chatconsole.h"

#include "chat/chatclient.h"
#include "chatcomposer.h"
#include "chatmodelpicker.h"
#include "chatsettingsbar.h"
#include "chattranscript.h"
#include "gateway.h"
#include "messagewidget.h"

#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMetaMethod>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
// Re-render the streaming reply at most this often (20/s); slower when rendering itself gets slow.
constexpr int MinRenderIntervalMs = 50;
constexpr int MaxRenderIntervalMs = 500;
} // namespace

ChatConsole::ChatConsole(switchyard::Gateway *gateway, QWidget *parent)
    : QWidget(parent), m_gateway(gateway), m_client(new ChatClient(this)), m_renderTimer(new QTimer(this))
{
    setObjectName(u"chatConsole"_s);
    buildUi();

    m_renderTimer->setSingleShot(true);
    connect(m_renderTimer, &QTimer::timeout, this, &ChatConsole::renderStreaming);

    connect(m_client, &ChatClient::modelsFetched, this, [this](const QList<ModelEntry> &models) {
        m_modelsError.clear();
        setModels(models);
    });
    connect(m_client, &ChatClient::modelsFailed, this, [this](const QString &error) {
        m_modelsError = error;
        syncGatewayState();
        emit modelsRefreshed();
    });
    connect(m_client, &ChatClient::replyStarted, this, &ChatConsole::onReplyStarted);
    connect(m_client, &ChatClient::reasoningReceived, this, &ChatConsole::onReasoning);
    connect(m_client, &ChatClient::contentReceived, this, &ChatConsole::onContent);
    connect(m_client, &ChatClient::finished, this, &ChatConsole::onFinished);

    if (m_gateway) {
        connect(m_gateway, &Gateway::runningChanged, this, [this](bool running) {
            syncGatewayState();
            if (running)
                refreshModels();
        });
        connect(m_gateway, &Gateway::stopped, this, &ChatConsole::syncGatewayState);
    }
    syncGatewayState();
    if (gatewayUsable())
        refreshModels();
}

ChatConsole::~ChatConsole() = default;

void ChatConsole::buildUi()
{
    m_settings = new ChatSettingsBar(this);
    m_model = m_settings->modelPicker();
    connect(m_settings, &ChatSettingsBar::refreshRequested, this, &ChatConsole::refreshModels);
    connect(m_settings, &ChatSettingsBar::newChatRequested, this, &ChatConsole::newChat);
    connect(m_settings, &ChatSettingsBar::openRequested, this, &ChatConsole::loadWithDialog);
    connect(m_settings, &ChatSettingsBar::saveRequested, this, &ChatConsole::saveWithDialog);
    m_banner = buildBanner();

    m_transcript = new ChatTranscript(this);
    connect(m_transcript, &ChatTranscript::copyRequested, this, &ChatConsole::copyReply);
    m_composer = new ChatComposer(this);
    connect(m_composer, &ChatComposer::sendRequested, this, &ChatConsole::sendFromInput);
    connect(m_composer, &ChatComposer::stopRequested, this, &ChatConsole::stop);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_transcript);
    splitter->addWidget(m_composer);
    splitter->setStretchFactor(0, 5);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({1000, fontMetrics().lineSpacing() * 3 + 36});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_settings);
    layout->addWidget(m_banner);
    layout->addWidget(splitter, 1);

    // Esc stops a reply wherever the focus is in the console.
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &ChatConsole::stop);
}

// Says why there is nothing to chat with (no gateway, or it is off or stopping), with a button to start it.
QFrame *ChatConsole::buildBanner()
{
    auto *banner = new QFrame(this);
    banner->setObjectName(u"chatGatewayBanner"_s);
    banner->setFrameShape(QFrame::StyledPanel);
    banner->setStyleSheet(u"QFrame#chatGatewayBanner { background-color: #fff4e5; border: 1px solid #f0b46c; "
                          "border-radius: 4px; } QFrame#chatGatewayBanner QLabel { color: #5f3b00; }"_s);
    m_bannerText = new QLabel(banner);
    m_bannerText->setWordWrap(true);
    m_startGateway = new QPushButton(tr("St&art the gateway"), banner);
    m_startGateway->setObjectName(u"chatStartGateway"_s);
    connect(m_startGateway, &QPushButton::clicked, this, &ChatConsole::startGateway);
    auto *layout = new QHBoxLayout(banner);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addWidget(m_bannerText, 1);
    layout->addWidget(m_startGateway);
    return banner;
}

void ChatConsole::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // The config may have changed since the list was fetched (no signal tells us): showing the tab is a
    // cheap moment to ask again.
    if (gatewayUsable() && !isBusy())
        refreshModels();
}

// ---- the gateway ----

bool ChatConsole::gatewayUsable() const
{
    if (!m_remoteUrl.isEmpty())
        return true;
    return m_gateway && m_gateway->isRunning() && !m_gateway->isStopping();
}

void ChatConsole::setRemoteGateway(const QUrl &url, const QString &key, const QByteArray &pin)
{
    m_remoteUrl = url;
    m_remoteKey = key;
    m_remotePin = pin;
    syncGatewayState();
    if (gatewayUsable())
        refreshModels();
}

QByteArray ChatConsole::certificatePin() const
{
    if (!m_remoteUrl.isEmpty())
        return m_remotePin;
    return m_gateway ? upstream::leafSha256(m_gateway->config().settings.tls.certificateChain) : QByteArray();
}

QString ChatConsole::baseUrl() const
{
    if (!m_remoteUrl.isEmpty())
        return m_remoteUrl.toString();
    return m_gateway ? client::connectableUrl(m_gateway->listenUrl()).toString() : QString();
}

QString ChatConsole::apiKey() const
{
    // When the gateway asks clients for a key, the console is a client like any other.
    if (!m_remoteUrl.isEmpty())
        return m_remoteKey;
    return m_gateway ? m_gateway->config().settings.ownToolsKey() : QString();
}

void ChatConsole::syncGatewayState()
{
    const bool usable = gatewayUsable();
    if (!m_gateway) {
        m_bannerText->setText(tr("No gateway: the chat console talks to models through the gateway."));
        m_startGateway->hide();
    } else if (m_gateway->isStopping()) {
        m_bannerText->setText(tr("The gateway is stopping; replies already streaming finish, new ones cannot start."));
        m_startGateway->hide();
    } else if (!usable) {
        m_bannerText->setText(tr("The gateway is off, so there is nothing to chat with. Start it to list its models "
                                 "and send messages; saved chats can still be opened."));
        m_startGateway->show();
    }
    m_banner->setVisible(!usable);
    m_composer->setSendEnabled(usable && !isBusy());
    m_settings->setRefreshEnabled(usable);

    QString status;
    if (usable) {
        status = tr("Gateway at %1").arg(baseUrl());
        if (!m_modelsError.isEmpty())
            status += u" \u00B7 "_s % tr("cannot list models: %1").arg(m_modelsError);
        else if (m_modelsLoadedOnce)
            // Spelled out: without a loaded translation, "%n model(s)" would show its "(s)".
            status += u" \u00B7 "_s % (m_modelIds.size() == 1 ? tr("1 model") : tr("%1 models").arg(m_modelIds.size()));
    } else {
        status = tr("Gateway off");
    }
    m_composer->setStatus(status);
}

void ChatConsole::startGateway()
{
    if (!m_gateway)
        return;
    if (isSignalConnected(QMetaMethod::fromSignal(&ChatConsole::startGatewayRequested))) {
        emit startGatewayRequested();
    } else {
        const auto url = m_gateway->start();
        if (!url) {
            m_bannerText->setText(tr("The gateway could not start: %1").arg(url.error()));
            return;
        }
    }
    syncGatewayState();
}

void ChatConsole::refreshModels()
{
    if (!gatewayUsable())
        return;
    m_client->setPinnedSha256(certificatePin());
    m_client->fetchModels(QUrl(baseUrl()), apiKey());
}

void ChatConsole::setModels(const QList<ModelEntry> &models)
{
    // Keep what the operator chose (or typed: a wildcard provider serves names the list cannot show).
    const QString keep = m_pendingModel.isEmpty() ? m_model->currentText() : m_pendingModel;
    m_pendingModel.clear();
    m_modelIds.clear();
    for (const ModelEntry &m : models)
        m_modelIds.append(m.id);
    m_model->setModels(models, keep);
    m_modelsLoadedOnce = true;
    syncGatewayState();
    emit modelsRefreshed();
}

void ChatConsole::openWith(const QString &model)
{
    if (!model.isEmpty()) {
        m_model->setCurrentText(model);
        if (!m_modelsLoadedOnce)
            m_pendingModel = model;
    }
    m_composer->input()->setFocus(Qt::OtherFocusReason);
}

QString ChatConsole::currentModel() const
{
    return m_model->currentModel();
}

QStringList ChatConsole::availableModels() const
{
    return m_modelIds;
}

void ChatConsole::setSystemPrompt(const QString &text)
{
    m_settings->setSystemPrompt(text);
}

void ChatConsole::setTemperature(std::optional<double> temperature)
{
    m_settings->setTemperature(temperature);
}

void ChatConsole::setMaxTokens(int maxTokens)
{
    m_settings->setMaxTokens(maxTokens);
}

// ---- sending ----

void ChatConsole::sendFromInput()
{
    if (send(m_composer->input()->toPlainText()))
        m_composer->input()->clear();
}

bool ChatConsole::send(const QString &text)
{
    if (text.trimmed().isEmpty() || isBusy())
        return false;
    if (!gatewayUsable()) {
        syncGatewayState();
        m_banner->show();
        return false;
    }
    const QString model = currentModel();
    if (model.isEmpty()) {
        m_composer->setStatus(tr("Pick a model first."));
        m_model->setFocus(Qt::OtherFocusReason);
        return false;
    }
    const Conversation settings = conversation();

    ChatMessage user;
    user.role = ChatMessage::Role::User;
    user.content = text;
    m_conversation.messages.append(user);
    m_transcript->append(user);

    client::ChatRequest req;
    req.baseUrl = QUrl(baseUrl());
    req.apiKey = apiKey();
    req.model = model;
    req.temperature = settings.temperature;
    req.maxTokens = settings.maxTokens;
    req.responsesApi = m_settings->responsesApi();
    // The history as it stands, this question included and the empty reply below not yet.
    Conversation forRequest = settings;
    forRequest.messages = m_conversation.messages;
    req.messages = forRequest.requestMessages();

    ChatMessage reply;
    reply.role = ChatMessage::Role::Assistant;
    reply.state = ChatMessage::State::Streaming;
    reply.model = model;
    m_conversation.messages.append(reply);
    m_streamingIndex = int(m_conversation.messages.size()) - 1;
    m_transcript->append(reply);
    m_transcript->followNewest();

    m_renderIntervalMs = MinRenderIntervalMs;
    setBusy(true);
    m_client->setPinnedSha256(certificatePin());
    if (!m_client->send(req)) { // cannot happen while isBusy() guards, but never leave a reply hanging
        onFinished({ChatOutcome::End::Failed, {}, tr("The previous request is still running.")});
        return false;
    }
    return true;
}

void ChatConsole::stop()
{
    if (m_client->isBusy())
        m_client->stop();
}

bool ChatConsole::isBusy() const
{
    return m_streamingIndex >= 0;
}

void ChatConsole::setBusy(bool busy)
{
    m_composer->setSendEnabled(!busy && gatewayUsable());
    m_composer->setBusy(busy);
    emit busyChanged(busy);
}

void ChatConsole::onReplyStarted(const QString &node, int attempts)
{
    if (m_streamingIndex < 0)
        return;
    ChatMessage &m = m_conversation.messages[m_streamingIndex];
    m.stats.node = node;
    m.stats.attempts = attempts;
    scheduleRender();
}

void ChatConsole::onReasoning(const QString &text)
{
    if (m_streamingIndex < 0)
        return;
    m_conversation.messages[m_streamingIndex].reasoning += text;
    scheduleRender();
}

void ChatConsole::onContent(const QString &text)
{
    if (m_streamingIndex < 0)
        return;
    m_conversation.messages[m_streamingIndex].content += text;
    scheduleRender();
}

void ChatConsole::scheduleRender()
{
    // Tokens arrive far faster than anyone reads; laying out Markdown per token would make a long reply
    // cost O(n²) and freeze the window. Collect them and render on a timer instead.
    if (!m_renderTimer->isActive())
        m_renderTimer->start(m_renderIntervalMs);
}

void ChatConsole::renderStreaming()
{
    if (m_streamingIndex < 0 || m_streamingIndex >= m_transcript->count())
        return;
    QElapsedTimer t;
    t.start();
    ChatMessage &m = m_conversation.messages[m_streamingIndex];
    m.stats.ttftMs = m_client->stats().ttftMs; // shown while the rest streams
    m_transcript->render(m_streamingIndex, m);
    // Rendering grows with the reply: keep it under about a quarter of the GUI thread's time.
    m_renderIntervalMs = std::clamp(int(t.elapsed()) * 4, MinRenderIntervalMs, MaxRenderIntervalMs);
}

void ChatConsole::onFinished(const ChatOutcome &outcome)
{
    m_renderTimer->stop();
    const int index = m_streamingIndex;
    m_streamingIndex = -1;
    if (index >= 0 && index < m_conversation.messages.size()) {
        ChatMessage &m = m_conversation.messages[index];
        const QString node = m.stats.node;
        m.stats = outcome.stats;
        if (m.stats.node.isEmpty())
            m.stats.node = node;
        switch (outcome.end) {
        case ChatOutcome::End::Completed:
            m.state = ChatMessage::State::Complete;
            break;
        case ChatOutcome::End::Stopped:
            m.state = ChatMessage::State::Stopped;
            break;
        case ChatOutcome::End::Failed:
            m.state = ChatMessage::State::Failed;
            // Status line errors get their status; a failure inside the stream (after 200) says so.
            if (outcome.stats.httpStatus >= 400)
                m.error = tr("The gateway answered HTTP %1: %2").arg(outcome.stats.httpStatus).arg(outcome.error);
            else if (outcome.stats.httpStatus == 200)
                m.error = tr("The reply failed mid-stream: %1").arg(outcome.error);
            else
                m.error = outcome.error;
            break;
        }
        m_transcript->render(index, m);
    }
    setBusy(false);
    syncGatewayState();
    emit replyFinished();
}

// ---- messages ----

int ChatConsole::messageCount() const
{
    return m_transcript->count();
}

QPlainTextEdit *ChatConsole::input() const
{
    return m_composer->input();
}

MessageWidget *ChatConsole::messageWidget(int index) const
{
    return m_transcript->message(index);
}

void ChatConsole::rebuildMessages()
{
    m_transcript->clear();
    for (const ChatMessage &m : std::as_const(m_conversation.messages))
        m_transcript->append(m);
    m_transcript->followNewest();
}

void ChatConsole::copyReply(int index)
{
    if (index < 0 || index >= m_conversation.messages.size())
        return;
    QGuiApplication::clipboard()->setText(m_conversation.messages[index].content);
    m_composer->setStatus(tr("Reply copied to the clipboard."));
}

void ChatConsole::detachReply()
{
    stop();
    // abort() reports the end at once, so nothing should be left; if a late end still came, it must not
    // land on a message of the chat that replaces this one.
    if (m_streamingIndex >= 0) {
        m_streamingIndex = -1;
        m_renderTimer->stop();
        setBusy(false);
    }
}

void ChatConsole::newChat()
{
    detachReply();
    m_conversation.clearMessages();
    rebuildMessages();
    syncGatewayState();
    m_composer->input()->setFocus(Qt::OtherFocusReason);
}

// ---- the conversation as a whole ----

Conversation ChatConsole::conversation() const
{
    Conversation c = m_conversation;
    m_settings->applyTo(c);
    return c;
}

void ChatConsole::syncSettingsFrom(const Conversation &c)
{
    if (!c.model.isEmpty())
        openWith(c.model);
    setSystemPrompt(c.systemPrompt);
    setTemperature(c.temperature);
    setMaxTokens(c.maxTokens);
}

void ChatConsole::setConversation(const Conversation &conversation)
{
    detachReply();
    m_conversation = conversation;
    syncSettingsFrom(conversation);
    rebuildMessages();
    syncGatewayState();
}

bool ChatConsole::saveConversation(const QString &path, QString *error)
{
    const auto saved = conversation().save(path);
    if (!saved) {
        if (error)
            *error = saved.error();
        return false;
    }
    m_composer->setStatus(tr("Saved to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool ChatConsole::loadConversation(const QString &path, QString *error)
{
    auto loaded = Conversation::load(path);
    if (!loaded) {
        if (error)
            *error = loaded.error();
        return false;
    }
    setConversation(*loaded);
    m_composer->setStatus(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void ChatConsole::saveWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save chat"), tr("chat.json"),
                                                      tr("Chats (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveConversation(path, &error))
        QMessageBox::warning(this, tr("Save chat"), tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), error));
}

void ChatConsole::loadWithDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open chat"), QString(), tr("Chats (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!loadConversation(path, &error))
        QMessageBox::warning(this, tr("Open chat"), tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), error));
}

QString ChatConsole::gatewayNotice() const
{
    return m_banner->isVisibleTo(this) ? m_bannerText->text() : QString();
}

QString ChatConsole::statusText() const
{
    return m_composer->status();
}

} // namespace switchyard::ui
