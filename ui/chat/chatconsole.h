#pragma once

// The Chat tab: talk to a model through the gateway, the pool or one pinned node, and see who answered
// and how fast. A self-contained widget over a Gateway (only its URL, API key and running state are
// used): the lead places it in the main window; the Nodes view's "open in chat" calls openWith().
//
// Requests go through the gateway's HTTP port like any client's, so what the console shows is what an
// application would get. The reply streams in through ChatClient (asynchronous, parsed as it arrives);
// the Markdown is re-rendered on a timer, at most ~20 times a second, so a long reply never starves the
// window.

#include "chat/conversation.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFrame;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTimer;
class QToolButton;
class QVBoxLayout;

namespace switchyard {
class Gateway;
}
namespace switchyard::client {
class ChatClient;
struct ChatOutcome;
struct ModelEntry;
} // namespace switchyard::client

namespace switchyard::ui {

class MessageWidget;
using client::ChatClient;
using client::ChatMessage;
using client::ChatOutcome;
using client::Conversation;
using client::ModelEntry;

class ChatConsole final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatConsole)

public:
    // gateway may be null (the console then says there is no gateway); it must outlive the console or
    // be deleted with it.
    explicit ChatConsole(switchyard::Gateway *gateway, QWidget *parent = nullptr);
    ~ChatConsole() override;

    // Preselects a model ("name" = the pool serving it, "provider/model" = that node only) and puts the
    // cursor in the message box. Works before the model list has arrived.
    void openWith(const QString &model);
    QString currentModel() const;
    QStringList availableModels() const; // as the gateway listed them last

    // Sends text as the next turn, with the history. False (nothing sent) when the text is empty, a reply
    // is streaming, no model is chosen or the gateway is off (the console then says so).
    bool send(const QString &text);
    // Stops the streaming reply: the request is aborted, and the gateway closes it at the node.
    void stop();
    bool isBusy() const;
    // Clears the messages (stopping a reply first); model and settings stay.
    void newChat();

    // The chat with the current settings (model, system prompt, temperature, max tokens).
    Conversation conversation() const;
    bool saveConversation(const QString &path, QString *error = nullptr);
    bool loadConversation(const QString &path, QString *error = nullptr);
    void setConversation(const Conversation &conversation);

    // Asks the gateway for its models again (also done when it starts and when the tab is shown).
    void refreshModels();

    void setSystemPrompt(const QString &text);
    void setTemperature(std::optional<double> temperature);
    void setMaxTokens(int maxTokens);

    // For tests and the screenshot.
    ChatClient *client() const { return m_client; }
    int messageCount() const;
    MessageWidget *messageWidget(int index) const;
    QPlainTextEdit *input() const { return m_input; }
    QString gatewayNotice() const; // the "gateway is off" banner's text, empty when hidden
    QString statusText() const;

signals:
    void busyChanged(bool busy);
    void replyFinished();
    void modelsRefreshed();
    // The operator pressed "Start the gateway" on the console's banner. When nothing is connected here the
    // console calls Gateway::start() itself; the main window connects its own start (which reports errors
    // in its banner and tray).
    void startGatewayRequested();

protected:
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildUi();
    void syncGatewayState();
    void startGateway();
    void sendFromInput();
    void setBusy(bool busy);
    void detachReply();
    void setModels(const QList<ModelEntry> &models);
    void addMessageWidget(int index);
    void rebuildMessages();
    void scheduleRender();
    void renderStreaming();
    void onReplyStarted(const QString &node, int attempts);
    void onReasoning(const QString &text);
    void onContent(const QString &text);
    void onFinished(const ChatOutcome &outcome);
    void copyReply(MessageWidget *widget);
    void saveWithDialog();
    void loadWithDialog();
    void syncSettingsFrom(const Conversation &c);
    void updateEmptyHint();
    QString baseUrl() const;
    QString apiKey() const;
    bool gatewayUsable() const;

    QPointer<switchyard::Gateway> m_gateway;
    ChatClient *m_client;
    Conversation m_conversation; // messages only; settings live in the widgets
    int m_streamingIndex = -1;   // the reply arriving now

    QComboBox *m_model;
    QToolButton *m_refresh;
    QDoubleSpinBox *m_temperature;
    QSpinBox *m_maxTokens;
    QPlainTextEdit *m_systemPrompt;
    QPushButton *m_newChat;
    QPushButton *m_save;
    QPushButton *m_load;
    QFrame *m_banner;
    QLabel *m_bannerText;
    QPushButton *m_startGateway;
    QScrollArea *m_scroll;
    QWidget *m_messagesHost;
    QVBoxLayout *m_messagesLayout;
    QLabel *m_emptyHint;
    QPlainTextEdit *m_input;
    QPushButton *m_send;
    QPushButton *m_stop;
    QLabel *m_status;

    QList<MessageWidget *> m_widgets;
    QStringList m_modelIds;
    QString m_modelsError;
    QString m_pendingModel; // openWith() before the list arrived
    QTimer *m_renderTimer;
    int m_renderIntervalMs = 50;
    bool m_stickToBottom = true;
    bool m_modelsLoadedOnce = false;
};

} // namespace switchyard::ui
