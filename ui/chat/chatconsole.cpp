#include "chatconsole.h"

#include "chat/chatclient.h"
#include "gateway.h"
#include "messagewidget.h"

#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMetaMethod>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
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
    updateEmptyHint();
    if (gatewayUsable())
        refreshModels();
}

ChatConsole::~ChatConsole() = default;

void ChatConsole::buildUi()
{
    // Row 1: model and sampling settings, and the chat's file actions. Mnemonics avoid the main window's
    // (tabs N C R F H B, menus F G V H).
    m_model = new QComboBox(this);
    m_model->setObjectName(u"chatModel"_s);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->setMinimumContentsLength(26);
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->lineEdit()->setPlaceholderText(tr("model, or provider/model"));
    m_model->setToolTip(tr("A bare model name goes to the pool of nodes serving it (the gateway balances and fails "
                           "over); \"provider/model\" pins one node."));
    auto *modelLabel = new QLabel(tr("&Model:"), this);
    modelLabel->setBuddy(m_model);

    m_refresh = new QToolButton(this);
    m_refresh->setObjectName(u"chatRefreshModels"_s);
    m_refresh->setText(tr("\u21BB"));
    m_refresh->setToolTip(tr("Ask the gateway for its models again"));
    connect(m_refresh, &QToolButton::clicked, this, &ChatConsole::refreshModels);

    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setObjectName(u"chatTemperature"_s);
    // The lowest value stands for "not sent": the model's own default (vLLM reads generation_config).
    m_temperature->setRange(-0.1, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    m_temperature->setSpecialValueText(tr("default"));
    m_temperature->setValue(-0.1);
    m_temperature->setToolTip(tr("Sampling temperature; \"default\" leaves it to the model"));
    auto *tempLabel = new QLabel(tr("&Temperature:"), this);
    tempLabel->setBuddy(m_temperature);

    m_maxTokens = new QSpinBox(this);
    m_maxTokens->setObjectName(u"chatMaxTokens"_s);
    m_maxTokens->setRange(0, 1000000);
    m_maxTokens->setSingleStep(256);
    m_maxTokens->setSpecialValueText(tr("default"));
    m_maxTokens->setValue(0);
    m_maxTokens->setToolTip(tr("Upper bound on the reply's tokens (reasoning included); \"default\" lets the "
                               "node decide (the rest of its context)"));
    auto *maxLabel = new QLabel(tr("Max t&okens:"), this);
    maxLabel->setBuddy(m_maxTokens);

    m_newChat = new QPushButton(tr("Ne&w chat"), this);
    m_newChat->setObjectName(u"chatNew"_s);
    m_newChat->setToolTip(tr("Start over: clears the messages, keeps the model and settings"));
    connect(m_newChat, &QPushButton::clicked, this, &ChatConsole::newChat);
    m_load = new QPushButton(tr("O&pen\u2026"), this);
    m_load->setObjectName(u"chatLoad"_s);
    m_load->setToolTip(tr("Open a chat saved as JSON (or an OpenAI request body)"));
    connect(m_load, &QPushButton::clicked, this, &ChatConsole::loadWithDialog);
    m_save = new QPushButton(tr("&Save\u2026"), this);
    m_save->setObjectName(u"chatSave"_s);
    m_save->setToolTip(tr("Save this chat as JSON: messages, reasoning, settings and each reply's node and timings"));
    connect(m_save, &QPushButton::clicked, this, &ChatConsole::saveWithDialog);

    auto *settingsRow = new QHBoxLayout;
    settingsRow->addWidget(modelLabel);
    settingsRow->addWidget(m_model, 3);
    settingsRow->addWidget(m_refresh);
    settingsRow->addSpacing(12);
    settingsRow->addWidget(tempLabel);
    settingsRow->addWidget(m_temperature);
    settingsRow->addSpacing(12);
    settingsRow->addWidget(maxLabel);
    settingsRow->addWidget(m_maxTokens);
    settingsRow->addStretch(1);
    settingsRow->addWidget(m_newChat);
    settingsRow->addWidget(m_load);
    settingsRow->addWidget(m_save);

    // Row 2: the system prompt, short by default (it is read more often than written).
    m_systemPrompt = new QPlainTextEdit(this);
    m_systemPrompt->setObjectName(u"chatSystemPrompt"_s);
    m_systemPrompt->setPlaceholderText(tr("System prompt (optional), sent first with every turn"));
    m_systemPrompt->setTabChangesFocus(true);
    const int line = fontMetrics().lineSpacing();
    m_systemPrompt->setFixedHeight(line * 2 + 14);
    auto *systemLabel = new QLabel(tr("S&ystem:"), this);
    systemLabel->setBuddy(m_systemPrompt);
    auto *systemRow = new QHBoxLayout;
    systemRow->addWidget(systemLabel, 0, Qt::AlignTop);
    systemRow->addWidget(m_systemPrompt, 1);

    // The gateway-off banner.
    m_banner = new QFrame(this);
    m_banner->setObjectName(u"chatGatewayBanner"_s);
    m_banner->setFrameShape(QFrame::StyledPanel);
    m_banner->setStyleSheet(u"QFrame#chatGatewayBanner { background-color: #fff4e5; border: 1px solid #f0b46c; "
                            "border-radius: 4px; } QFrame#chatGatewayBanner QLabel { color: #5f3b00; }"_s);
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setWordWrap(true);
    m_startGateway = new QPushButton(tr("St&art the gateway"), m_banner);
    m_startGateway->setObjectName(u"chatStartGateway"_s);
    connect(m_startGateway, &QPushButton::clicked, this, &ChatConsole::startGateway);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->setContentsMargins(10, 6, 10, 6);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(m_startGateway);

    // The conversation.
    m_messagesHost = new QWidget(this);
    m_messagesHost->setObjectName(u"chatMessages"_s);
    m_messagesLayout = new QVBoxLayout(m_messagesHost);
    m_messagesLayout->setContentsMargins(8, 8, 8, 8);
    m_messagesLayout->setSpacing(8);
    m_emptyHint = new QLabel(m_messagesHost);
    m_emptyHint->setObjectName(u"chatEmptyHint"_s);
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setAlignment(Qt::AlignCenter);
    m_emptyHint->setText(tr("Pick a model, type a message and press Ctrl+Enter.\nThe reply streams in as the node "
                            "writes it; the line under it tells which node answered, after how many attempts, and "
                            "how fast."));
    {
        QPalette p = m_emptyHint->palette();
        p.setColor(QPalette::WindowText, p.color(QPalette::PlaceholderText));
        m_emptyHint->setPalette(p);
    }
    m_messagesLayout->addWidget(m_emptyHint);
    m_messagesLayout->addStretch(1);

    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(u"chatScroll"_s);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(m_messagesHost);
    QScrollBar *bar = m_scroll->verticalScrollBar();
    // Follow the reply as it grows, unless the operator scrolled up to read something.
    connect(bar, &QScrollBar::valueChanged, this,
            [this, bar](int value) { m_stickToBottom = value >= bar->maximum() - 24; });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_stickToBottom)
            bar->setValue(max);
    });

    // The message box and its buttons.
    m_input = new QPlainTextEdit(this);
    m_input->setObjectName(u"chatInput"_s);
    m_input->setPlaceholderText(tr("Message \u2014 Ctrl+Enter sends, Esc stops a reply"));
    m_input->setTabChangesFocus(true);
    m_input->installEventFilter(this);
    m_send = new QPushButton(tr("Send"), this);
    m_send->setObjectName(u"chatSend"_s);
    m_send->setToolTip(tr("Send (Ctrl+Enter)"));
    m_send->setDefault(false);
    connect(m_send, &QPushButton::clicked, this, &ChatConsole::sendFromInput);
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(u"chatStop"_s);
    m_stop->setToolTip(tr("Stop the reply (Esc): the request is aborted and the node stops generating"));
    m_stop->setEnabled(false);
    connect(m_stop, &QPushButton::clicked, this, &ChatConsole::stop);
    m_status = new QLabel(this);
    m_status->setObjectName(u"chatStatus"_s);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    {
        QPalette p = m_status->palette();
        p.setColor(QPalette::WindowText, p.color(QPalette::PlaceholderText));
        m_status->setPalette(p);
    }

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_send);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    auto *inputRow = new QHBoxLayout;
    inputRow->setContentsMargins(0, 0, 0, 0);
    inputRow->addWidget(m_input, 1);
    inputRow->addLayout(buttons);
    auto *inputHost = new QWidget(this);
    auto *inputLayout = new QVBoxLayout(inputHost);
    inputLayout->setContentsMargins(0, 0, 0, 0);
    inputLayout->setSpacing(2);
    inputLayout->addLayout(inputRow, 1);
    inputLayout->addWidget(m_status);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_scroll);
    splitter->addWidget(inputHost);
    splitter->setStretchFactor(0, 5);
    splitter->setStretchFactor(1, 1);
    m_input->setMinimumHeight(line * 2 + 14);
    splitter->setSizes({1000, line * 3 + 36});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(settingsRow);
    layout->addLayout(systemRow);
    layout->addWidget(m_banner);
    layout->addWidget(splitter, 1);

    // Esc stops a reply wherever the focus is in the console.
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &ChatConsole::stop);
}

bool ChatConsole::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        if (enter && (key->modifiers() & Qt::ControlModifier)) {
            sendFromInput();
            return true;
        }
        if (key->key() == Qt::Key_Escape && isBusy()) {
            stop();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
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
    return m_gateway && m_gateway->isRunning() && !m_gateway->isStopping();
}

QString ChatConsole::baseUrl() const
{
    return m_gateway ? client::connectableUrl(m_gateway->listenUrl()).toString() : QString();
}

QString ChatConsole::apiKey() const
{
    // When the gateway asks clients for a key, the console is a client like any other.
    return m_gateway ? m_gateway->config().settings.apiKeys.value(0) : QString();
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
    m_send->setEnabled(usable && !isBusy());
    m_refresh->setEnabled(usable);

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
    m_status->setText(status);
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
    m_client->fetchModels(QUrl(baseUrl()), apiKey());
}

void ChatConsole::setModels(const QList<ModelEntry> &models)
{
    const QString keep = m_pendingModel.isEmpty() ? m_model->currentText() : m_pendingModel;
    m_pendingModel.clear();
    m_modelIds.clear();
    QList<ModelEntry> pool;
    QList<ModelEntry> pinned;
    for (const ModelEntry &m : models) {
        m_modelIds.append(m.id);
        (m.pinned() ? pinned : pool).append(m);
    }

    const QSignalBlocker block(m_model);
    m_model->clear();
    for (const ModelEntry &m : pool) {
        m_model->addItem(m.id, m.id);
        m_model->setItemData(m_model->count() - 1,
                             tr("Pool: the gateway picks among %1 and fails over").arg(m.providers.join(u", "_s)),
                             Qt::ToolTipRole);
    }
    if (!pool.isEmpty() && !pinned.isEmpty())
        m_model->insertSeparator(m_model->count());
    for (const ModelEntry &m : pinned) {
        m_model->addItem(m.id, m.id);
        m_model->setItemData(m_model->count() - 1, tr("Pinned: only the node %1 answers, no failover").arg(m.providers.value(0)),
                             Qt::ToolTipRole);
    }
    // Keep what the operator chose (or typed: a wildcard provider serves names the list cannot show).
    if (!keep.isEmpty())
        m_model->setCurrentText(keep);
    else if (!pool.isEmpty())
        m_model->setCurrentText(pool.first().id);
    else if (!pinned.isEmpty())
        m_model->setCurrentText(pinned.first().id);
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
    m_input->setFocus(Qt::OtherFocusReason);
}

QString ChatConsole::currentModel() const
{
    return m_model->currentText().trimmed();
}

QStringList ChatConsole::availableModels() const
{
    return m_modelIds;
}

void ChatConsole::setSystemPrompt(const QString &text)
{
    m_systemPrompt->setPlainText(text);
}

void ChatConsole::setTemperature(std::optional<double> temperature)
{
    m_temperature->setValue(temperature ? *temperature : m_temperature->minimum());
}

void ChatConsole::setMaxTokens(int maxTokens)
{
    m_maxTokens->setValue(std::max(0, maxTokens));
}

// ---- sending ----

void ChatConsole::sendFromInput()
{
    if (send(m_input->toPlainText()))
        m_input->clear();
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
        m_status->setText(tr("Pick a model first."));
        m_model->setFocus(Qt::OtherFocusReason);
        return false;
    }
    const Conversation settings = conversation();

    ChatMessage user;
    user.role = ChatMessage::Role::User;
    user.content = text;
    m_conversation.messages.append(user);
    addMessageWidget(int(m_conversation.messages.size()) - 1);

    client::ChatRequest req;
    req.baseUrl = QUrl(baseUrl());
    req.apiKey = apiKey();
    req.model = model;
    req.temperature = settings.temperature;
    req.maxTokens = settings.maxTokens;
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
    addMessageWidget(m_streamingIndex);
    m_stickToBottom = true;

    m_renderIntervalMs = MinRenderIntervalMs;
    setBusy(true);
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
    m_send->setEnabled(!busy && gatewayUsable());
    m_stop->setEnabled(busy);
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
    if (m_streamingIndex < 0 || m_streamingIndex >= m_widgets.size())
        return;
    QElapsedTimer t;
    t.start();
    ChatMessage &m = m_conversation.messages[m_streamingIndex];
    m.stats.ttftMs = m_client->stats().ttftMs; // shown while the rest streams
    m_widgets[m_streamingIndex]->render(m);
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
        if (index < m_widgets.size())
            m_widgets[index]->render(m);
    }
    setBusy(false);
    syncGatewayState();
    emit replyFinished();
}

// ---- messages ----

int ChatConsole::messageCount() const
{
    return int(m_widgets.size());
}

MessageWidget *ChatConsole::messageWidget(int index) const
{
    return index >= 0 && index < m_widgets.size() ? m_widgets[index] : nullptr;
}

void ChatConsole::addMessageWidget(int index)
{
    auto *w = new MessageWidget(m_conversation.messages[index], m_messagesHost);
    connect(w, &MessageWidget::copyRequested, this, [this, w] { copyReply(w); });
    // Before the trailing stretch.
    m_messagesLayout->insertWidget(m_messagesLayout->count() - 1, w);
    m_widgets.append(w);
    updateEmptyHint();
}

void ChatConsole::rebuildMessages()
{
    for (MessageWidget *w : std::as_const(m_widgets))
        delete w;
    m_widgets.clear();
    for (int i = 0; i < m_conversation.messages.size(); ++i)
        addMessageWidget(i);
    updateEmptyHint();
    m_stickToBottom = true;
}

void ChatConsole::updateEmptyHint()
{
    m_emptyHint->setVisible(m_widgets.isEmpty());
}

void ChatConsole::copyReply(MessageWidget *widget)
{
    const qsizetype i = m_widgets.indexOf(widget);
    if (i < 0 || i >= m_conversation.messages.size())
        return;
    QGuiApplication::clipboard()->setText(m_conversation.messages[i].content);
    m_status->setText(tr("Reply copied to the clipboard."));
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
    m_input->setFocus(Qt::OtherFocusReason);
}

// ---- the conversation as a whole ----

Conversation ChatConsole::conversation() const
{
    Conversation c = m_conversation;
    c.model = currentModel();
    c.systemPrompt = m_systemPrompt->toPlainText();
    if (m_temperature->value() > m_temperature->minimum())
        c.temperature = m_temperature->value();
    c.maxTokens = m_maxTokens->value();
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
    m_status->setText(tr("Saved to %1").arg(QDir::toNativeSeparators(path)));
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
    m_status->setText(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
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
    return m_status->text();
}

} // namespace switchyard::ui
