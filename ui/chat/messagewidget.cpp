#include "messagewidget.h"

#include <QAbstractTextDocumentLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

// ---- AutoHeightBrowser ----

AutoHeightBrowser::AutoHeightBrowser(QWidget *parent) : QTextBrowser(parent)
{
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setOpenExternalLinks(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setTextInteractionFlags(Qt::TextBrowserInteraction | Qt::TextSelectableByKeyboard);
    // The message frame paints the background; the browser stays see-through on top of it.
    viewport()->setAutoFillBackground(false);
    QPalette p = palette();
    p.setColor(QPalette::Base, Qt::transparent);
    setPalette(p);
    document()->setDocumentMargin(2);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &AutoHeightBrowser::fitHeight);
}

QSize AutoHeightBrowser::sizeHint() const
{
    return {QTextBrowser::sizeHint().width(), height()};
}

QSize AutoHeightBrowser::minimumSizeHint() const
{
    return {50, height()};
}

void AutoHeightBrowser::resizeEvent(QResizeEvent *event)
{
    QTextBrowser::resizeEvent(event);
    fitHeight();
}

void AutoHeightBrowser::fitHeight()
{
    // Height follows from the width alone (no scroll bars), so this settles after one pass.
    const int w = viewport()->width();
    if (w > 0 && !qFuzzyCompare(document()->textWidth(), qreal(w)))
        document()->setTextWidth(w);
    const QMargins m = contentsMargins();
    const int h = int(std::ceil(document()->size().height())) + m.top() + m.bottom() + 2 * frameWidth();
    if (h != height()) {
        setFixedHeight(h);
        updateGeometry();
    }
}

// ---- MessageWidget ----

namespace {

QString duration(qint64 ms)
{
    const QLocale l;
    if (ms < 1000)
        return MessageWidget::tr("%1 ms").arg(ms);
    return MessageWidget::tr("%1 s").arg(l.toString(ms / 1000.0, 'f', ms < 10000 ? 2 : 1));
}

// Markdown code blocks come out of QTextDocument in a monospace font but on no background; a tint makes
// them read as blocks, as in every chat UI.
void tintCodeBlocks(QTextDocument *doc, const QColor &background)
{
    QTextCursor cursor(doc);
    cursor.beginEditBlock();
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        const QTextBlockFormat f = b.blockFormat();
        if (!f.hasProperty(QTextFormat::BlockCodeFence) && !f.hasProperty(QTextFormat::BlockCodeLanguage))
            continue;
        QTextBlockFormat tint;
        tint.setBackground(background);
        tint.setLeftMargin(6);
        QTextCursor c(b);
        c.mergeBlockFormat(tint);
    }
    cursor.endEditBlock();
}

} // namespace

MessageWidget::MessageWidget(const ChatMessage &message, QWidget *parent)
    : QFrame(parent), m_role(message.role), m_header(new QLabel(this)), m_reasoningToggle(new QToolButton(this)),
      m_reasoningBox(new QWidget(this)), m_reasoning(new AutoHeightBrowser(m_reasoningBox)), m_body(new AutoHeightBrowser(this)), m_error(new QLabel(this)),
      m_meta(new QLabel(this)), m_copy(new QToolButton(this))
{
    setObjectName(u"chatMessage"_s);
    setFrameShape(QFrame::NoFrame);
    setAutoFillBackground(true);

    QFont hf = m_header->font();
    hf.setBold(true);
    m_header->setFont(hf);
    m_header->setObjectName(u"chatMessageHeader"_s);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_reasoningToggle->setObjectName(u"chatReasoningToggle"_s);
    m_reasoningToggle->setCheckable(true);
    m_reasoningToggle->setAutoRaise(true);
    m_reasoningToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_reasoningToggle->setArrowType(Qt::RightArrow);
    m_reasoningToggle->setToolTip(tr("Show or hide the model's reasoning (reasoning_content). It is not sent back "
                                     "with the next turn."));
    connect(m_reasoningToggle, &QToolButton::clicked, this, [this](bool on) {
        m_reasoningTouched = true;
        setReasoningExpanded(on);
    });

    m_reasoning->setObjectName(u"chatReasoning"_s);
    // A rule on the left sets the reasoning apart from the answer, like a quotation.
    m_reasoningBox->setObjectName(u"chatReasoningBox"_s);
    auto *rule = new QWidget(m_reasoningBox);
    rule->setFixedWidth(3);
    rule->setAutoFillBackground(true);
    {
        QPalette p = rule->palette();
        p.setColor(QPalette::Window, p.color(QPalette::Mid));
        rule->setPalette(p);
    }
    auto *reasoningLayout = new QHBoxLayout(m_reasoningBox);
    reasoningLayout->setContentsMargins(6, 0, 0, 4);
    reasoningLayout->setSpacing(6);
    reasoningLayout->addWidget(rule);
    reasoningLayout->addWidget(m_reasoning, 1);
    m_reasoningBox->hide();
    {
        QPalette p = m_reasoning->palette();
        p.setColor(QPalette::Text, p.color(QPalette::PlaceholderText));
        m_reasoning->setPalette(p);
        QFont f = m_reasoning->font();
        f.setItalic(true);
        m_reasoning->setFont(f);
    }

    m_body->setObjectName(u"chatMessageBody"_s);

    m_error->setObjectName(u"chatMessageError"_s);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();

    m_meta->setObjectName(u"chatMessageMeta"_s);
    m_meta->setWordWrap(true);
    m_meta->setTextInteractionFlags(Qt::TextSelectableByMouse);
    {
        QPalette p = m_meta->palette();
        p.setColor(QPalette::WindowText, p.color(QPalette::PlaceholderText));
        m_meta->setPalette(p);
        QFont f = m_meta->font();
        f.setPointSizeF(f.pointSizeF() * 0.9);
        m_meta->setFont(f);
    }
    m_meta->setToolTip(tr("Node: who served the reply (X-Switchyard-Node). Attempts: nodes tried, 1 = no failover. "
                          "First token: request sent \u2192 first token. tok/s: output tokens over the time after "
                          "the first token. In/out: prompt and completion tokens as the node counted them "
                          "(\u2248: counted from the stream). Total: request sent \u2192 reply ended."));

    m_copy->setObjectName(u"chatCopyButton"_s);
    m_copy->setText(tr("Copy"));
    m_copy->setAutoRaise(true);
    m_copy->setToolTip(tr("Copy this reply (as Markdown) to the clipboard"));
    connect(m_copy, &QToolButton::clicked, this, &MessageWidget::copyRequested);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_header, 1);
    auto *bottom = new QHBoxLayout;
    bottom->setContentsMargins(0, 0, 0, 0);
    bottom->addWidget(m_meta, 1);
    bottom->addWidget(m_copy, 0, Qt::AlignBottom);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_reasoningToggle, 0, Qt::AlignLeft);
    layout->addWidget(m_reasoningBox);
    layout->addWidget(m_body);
    layout->addWidget(m_error);
    layout->addLayout(bottom);

    if (message.isUser()) {
        m_reasoningToggle->hide();
        m_meta->hide();
        m_copy->hide();
    }
    render(message);
}

void MessageWidget::applyStyle(const ChatMessage &message)
{
    const int key = int(message.state) * 2 + (message.isUser() ? 1 : 0);
    if (key == m_styledState)
        return;
    m_styledState = key;
    const QPalette base = QWidget::palette();
    const QColor window = base.color(QPalette::Window);
    QColor bg;
    QColor border;
    if (message.isUser()) {
        // The operator's turns: tinted with the highlight colour, like a sent message.
        const QColor h = base.color(QPalette::Highlight);
        bg = QColor::fromRgbF(window.redF() * 0.88f + h.redF() * 0.12f, window.greenF() * 0.88f + h.greenF() * 0.12f,
                              window.blueF() * 0.88f + h.blueF() * 0.12f);
        border = bg.darker(110);
    } else if (message.state == ChatMessage::State::Failed) {
        const QColor red(0xc6, 0x28, 0x28);
        bg = QColor::fromRgbF(window.redF() * 0.9f + red.redF() * 0.1f, window.greenF() * 0.9f + red.greenF() * 0.1f,
                              window.blueF() * 0.9f + red.blueF() * 0.1f);
        border = red;
    } else {
        bg = base.color(QPalette::Base);
        border = window.darker(115);
    }
    setStyleSheet(u"QFrame#chatMessage { background-color: %1; border: 1px solid %2; border-radius: 6px; }"_s.arg(
        bg.name(), border.name()));
    QPalette ep = m_error->palette();
    ep.setColor(QPalette::WindowText, QColor(0xb7, 0x1c, 0x1c));
    m_error->setPalette(ep);
}

void MessageWidget::render(const ChatMessage &message)
{
    applyStyle(message);
    const bool streaming = message.state == ChatMessage::State::Streaming;

    if (message.isUser()) {
        m_header->setText(tr("You"));
    } else {
        const QString who = message.model.isEmpty() ? tr("Assistant") : message.model;
        m_header->setText(streaming ? tr("%1 \u2014 answering\u2026").arg(who) : who);
    }

    // Reasoning: apart from the answer, open while it is all there is to see, closed once the answer
    // starts (unless the operator chose), so a long think does not push the answer off screen.
    const bool hasReasoning = !message.reasoning.isEmpty();
    m_reasoningToggle->setVisible(hasReasoning);
    if (hasReasoning) {
        const bool thinking = streaming && message.content.isEmpty();
        m_reasoningToggle->setText(thinking ? tr("Reasoning\u2026") : tr("Reasoning"));
        if (!m_reasoningTouched)
            setReasoningExpanded(thinking);
        m_reasoningText = message.reasoning;
        if (m_reasoningText != m_shownReasoning && m_reasoningBox->isVisibleTo(this)) {
            m_reasoning->setPlainText(m_reasoningText);
            m_shownReasoning = m_reasoningText;
        }
    }

    if (message.content != m_shownContent || !m_contentShownOnce) {
        m_contentShownOnce = true;
        m_shownContent = message.content;
        if (message.isUser()) {
            m_body->setPlainText(message.content);
        } else {
            m_body->setMarkdown(message.content);
            const QColor window = QWidget::palette().color(QPalette::Window);
            tintCodeBlocks(m_body->document(), window.lightness() > 128 ? window.darker(106) : window.lighter(130));
        }
    }
    // A reply with nothing to show says so instead of an empty box.
    const bool empty = message.content.isEmpty();
    m_body->setVisible(!empty || message.isUser());
    if (!message.isUser() && empty && !streaming && message.state == ChatMessage::State::Complete) {
        m_error->setText(message.reasoning.isEmpty()
                             ? tr("The model returned an empty reply (finish reason: %1).")
                                   .arg(message.stats.finishReason.isEmpty() ? tr("none") : message.stats.finishReason)
                             : tr("The model spent every token reasoning and gave no answer (finish reason: %1). "
                                  "Raise Max tokens.")
                                   .arg(message.stats.finishReason.isEmpty() ? tr("none") : message.stats.finishReason));
        m_error->show();
    } else if (!message.error.isEmpty()) {
        m_error->setText(u"\u26A0 "_s + message.error);
        m_error->show();
    } else if (!message.isUser() && empty && message.state == ChatMessage::State::Stopped) {
        m_error->setText(tr("Stopped before the first token."));
        m_error->show();
    } else if (!message.isUser() && empty && streaming) {
        m_error->setText(tr("Waiting for the first token\u2026"));
        m_error->show();
    } else {
        m_error->hide();
    }
    if (m_error->isVisible()) {
        QPalette ep = m_error->palette();
        const bool alarming = message.state == ChatMessage::State::Failed || !message.error.isEmpty();
        ep.setColor(QPalette::WindowText,
                    alarming ? QColor(0xb7, 0x1c, 0x1c) : QWidget::palette().color(QPalette::PlaceholderText));
        m_error->setPalette(ep);
    }

    if (!message.isUser()) {
        m_meta->setText(metaLine(message));
        m_meta->setVisible(!m_meta->text().isEmpty());
        m_copy->setVisible(!empty && !streaming);
    }
}

QString MessageWidget::metaLine(const ChatMessage &m)
{
    const QLocale l;
    const ReplyStats &s = m.stats;
    QStringList parts;
    if (!s.node.isEmpty())
        parts << tr("node %1").arg(s.node);
    if (s.attempts > 0)
        parts << (s.attempts == 1 ? tr("1 attempt") : tr("%1 attempts").arg(s.attempts));
    if (m.state == ChatMessage::State::Streaming) {
        if (s.ttftMs >= 0)
            parts << tr("first token %1").arg(duration(s.ttftMs));
        return parts.join(u" \u00B7 "_s);
    }
    if (s.ttftMs >= 0)
        parts << tr("first token %1").arg(duration(s.ttftMs));
    const double rate = s.tokensPerSecond();
    if (rate > 0)
        parts << tr("%1 tok/s").arg(l.toString(rate, 'f', rate < 100 ? 1 : 0));
    if (s.promptTokens >= 0 || s.completionTokens >= 0) {
        const QString in = s.promptTokens >= 0 ? l.toString(s.promptTokens) : tr("?");
        const QString out = s.completionTokens >= 0 ? (s.tokensEstimated ? u"\u2248"_s : QString()) + l.toString(s.completionTokens)
                                                    : tr("?");
        parts << tr("%1 in / %2 out tokens").arg(in, out);
    }
    if (s.totalMs >= 0)
        parts << tr("total %1").arg(duration(s.totalMs));
    if (m.state == ChatMessage::State::Stopped)
        parts << tr("stopped");
    else if (s.finishReason == u"length"_s)
        parts << tr("cut at max tokens");
    else if (!s.finishReason.isEmpty() && s.finishReason != u"stop"_s)
        parts << tr("finish reason %1").arg(s.finishReason);
    return parts.join(u" \u00B7 "_s);
}

QString MessageWidget::renderedText() const
{
    return m_body->toPlainText();
}

QString MessageWidget::metaText() const
{
    return m_meta->text();
}

QString MessageWidget::errorText() const
{
    return m_error->isVisibleTo(const_cast<MessageWidget *>(this)) ? m_error->text() : QString();
}

bool MessageWidget::reasoningVisible() const
{
    return m_reasoningBox->isVisibleTo(const_cast<MessageWidget *>(this));
}

void MessageWidget::setReasoningExpanded(bool expanded)
{
    m_reasoningToggle->setChecked(expanded);
    m_reasoningToggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    if (expanded == m_reasoningBox->isVisibleTo(this))
        return;
    m_reasoningBox->setVisible(expanded);
    if (expanded && m_shownReasoning != m_reasoningText) {
        // Filled lazily: a hidden reasoning pane costs no layout work while tokens stream in.
        m_reasoning->setPlainText(m_reasoningText);
        m_shownReasoning = m_reasoningText;
    }
}

} // namespace switchyard::ui
