#pragma once

// The chat console's conversation pane: one MessageWidget per message, in a scroll area that follows a
// growing reply unless the operator scrolled up to read something, and a hint while the chat is empty.

#include <QList>
#include <QScrollArea>

class QLabel;
class QVBoxLayout;

namespace switchyard::client {
struct ChatMessage;
}

namespace switchyard::ui {

class MessageWidget;

class ChatTranscript final : public QScrollArea
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatTranscript)

public:
    explicit ChatTranscript(QWidget *parent = nullptr);

    // Shows one more message, below the others.
    void append(const client::ChatMessage &message);
    // Shows message again in the widget at index (a reply that grew or ended).
    void render(int index, const client::ChatMessage &message);
    void clear();
    int count() const { return int(m_widgets.size()); }
    MessageWidget *message(int index) const; // null when there is none at index
    // Follows the newest message again, as after sending or opening a chat.
    void followNewest() { m_stickToBottom = true; }

signals:
    // The Copy button of the message at index was clicked.
    void copyRequested(int index);

private:
    void updateEmptyHint();

    QWidget *m_host;
    QVBoxLayout *m_layout;
    QLabel *m_emptyHint;
    QList<MessageWidget *> m_widgets;
    bool m_stickToBottom = true;
};

} // namespace switchyard::ui
