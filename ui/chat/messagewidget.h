#pragma once

// One message of the chat console: who spoke, the reasoning apart and collapsible, the text (Markdown for
// replies, plain for the operator's messages), an error when the reply failed, and under a reply the line
// that says which node answered and how fast, with a Copy button.

#include "chat/conversation.h"

#include <QFrame>
#include <QTextBrowser>

class QLabel;
class QToolButton;

namespace switchyard::ui {

using client::ChatMessage;
using client::ReplyStats;

// A text browser as tall as its document: the conversation scrolls as a whole, not each message.
class AutoHeightBrowser final : public QTextBrowser
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AutoHeightBrowser)

public:
    explicit AutoHeightBrowser(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitHeight();
};

class MessageWidget final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageWidget)

public:
    explicit MessageWidget(const ChatMessage &message, QWidget *parent = nullptr);

    // Shows the message as it is now. Cheap when little changed: the Markdown is re-laid out only when
    // the text did, which is why the console calls this on a timer rather than per token.
    void render(const ChatMessage &message);

    // For tests and the screenshot.
    QString renderedText() const;
    QString metaText() const;
    QString errorText() const;
    bool reasoningVisible() const;
    void setReasoningExpanded(bool expanded);

signals:
    void copyRequested();

private:
    void applyStyle(const ChatMessage &message);
    static QString metaLine(const ChatMessage &message);

    ChatMessage::Role m_role;
    QLabel *m_header;
    QToolButton *m_reasoningToggle;
    QWidget *m_reasoningBox;
    AutoHeightBrowser *m_reasoning;
    AutoHeightBrowser *m_body;
    QLabel *m_error;
    QLabel *m_meta;
    QToolButton *m_copy;
    QString m_shownContent;
    QString m_shownReasoning;
    QString m_reasoningText;
    bool m_contentShownOnce = false;
    bool m_reasoningTouched = false; // the operator toggled it: stop opening/closing it for them
    int m_styledState = -1;
};

} // namespace switchyard::ui
