#pragma once

// The Chat tab: talk to a model through the gateway, the pool or one pinned node, and see who answered
// and how fast. A self-contained widget over a Gateway (only its URL, API key and running state are
// used): the main window shows it as its Chat tab; the Nodes view's "open in chat" calls openWith().
//
// Requests go through the gateway's HTTP port like any client's, so what the console shows is what an
// application would get. The reply streams in through ChatClient (asynchronous, parsed as it arrives);
// the Markdown is re-rendered on a timer, at most ~20 times a second, so a long reply never starves the
// window.
//
// Its parts live in files of their own: the settings rows (chatsettingsbar, with the model box of
// chatmodelpicker), the conversation pane (chattranscript, over messagewidget) and the message box with
// its status line (chatcomposer).

#include "chat/conversation.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QUrl>
#include <QWidget>

class QFrame;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace switchyard {
class Gateway;
}
namespace switchyard::client {
class ChatClient;
struct ChatOutcome;
struct ModelEntry;
} // namespace switchyard::client

namespace switchyard::ui {

class ChatComposer;
class ChatModelPicker;
class ChatSettingsBar;
class ChatTranscript;
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
    // A gateway that is not this process's (a remote one the panel is attached to): the console talks to
    // url with key like any client, and counts it as on (a paused or unreachable one answers each
    // request with its error).
    // pin: the SHA-256 of the certificate trusted for an https:// gateway beside the system's (empty: none).
    void setRemoteGateway(const QUrl &url, const QString &key, const QByteArray &pin = {});
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
    QPlainTextEdit *input() const;
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

private:
    void buildUi();
    QFrame *buildBanner();
    void syncGatewayState();
    void startGateway();
    void sendFromInput();
    void setBusy(bool busy);
    void detachReply();
    void setModels(const QList<ModelEntry> &models);
    void rebuildMessages();
    void scheduleRender();
    void renderStreaming();
    void onReplyStarted(const QString &node, int attempts);
    void onReasoning(const QString &text);
    void onContent(const QString &text);
    void onFinished(const ChatOutcome &outcome);
    void copyReply(int index);
    void saveWithDialog();
    void loadWithDialog();
    void syncSettingsFrom(const Conversation &c);
    QString baseUrl() const;
    QString apiKey() const;
    bool gatewayUsable() const;

    QPointer<switchyard::Gateway> m_gateway;
    QUrl m_remoteUrl; // set: the console talks to this gateway instead
    QString m_remoteKey;
    QByteArray m_remotePin;
    QByteArray certificatePin() const; // the gateway's, whichever it is
    ChatClient *m_client;
    Conversation m_conversation; // messages only; settings live in the widgets
    int m_streamingIndex = -1;   // the reply arriving now

    ChatSettingsBar *m_settings;
    ChatModelPicker *m_model; // in m_settings
    QFrame *m_banner;
    QLabel *m_bannerText;
    QPushButton *m_startGateway;
    ChatTranscript *m_transcript;
    ChatComposer *m_composer;

    QStringList m_modelIds;
    QString m_modelsError;
    QString m_pendingModel; // openWith() before the list arrived
    QTimer *m_renderTimer;
    int m_renderIntervalMs = 50;
    bool m_modelsLoadedOnce = false;
};

} // namespace switchyard::ui
