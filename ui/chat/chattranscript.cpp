#include "chattranscript.h"

#include "chat/conversation.h"
#include "messagewidget.h"

#include <QLabel>
#include <QScrollBar>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

ChatTranscript::ChatTranscript(QWidget *parent)
    : QScrollArea(parent), m_host(new QWidget(this)), m_layout(new QVBoxLayout(m_host)), m_emptyHint(new QLabel(m_host))
{
    setObjectName(u"chatScroll"_s);
    m_host->setObjectName(u"chatMessages"_s);
    m_layout->setContentsMargins(8, 8, 8, 8);
    m_layout->setSpacing(8);
    m_emptyHint->setObjectName(u"chatEmptyHint"_s);
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setAlignment(Qt::AlignCenter);
    m_emptyHint->setText(tr("Pick a model, type a message and press Ctrl+Enter.\nThe reply streams in as the node "
                            "writes it; the line under it tells which node answered, after how many attempts, and "
                            "how fast."));
    QPalette p = m_emptyHint->palette();
    p.setColor(QPalette::WindowText, p.color(QPalette::PlaceholderText));
    m_emptyHint->setPalette(p);
    m_layout->addWidget(m_emptyHint);
    m_layout->addStretch(1);
    updateEmptyHint();

    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setWidget(m_host);
    QScrollBar *bar = verticalScrollBar();
    // Follow the reply as it grows, unless the operator scrolled up to read something.
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) { m_stickToBottom = value >= bar->maximum() - 24; });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_stickToBottom)
            bar->setValue(max);
    });
}

void ChatTranscript::append(const client::ChatMessage &message)
{
    auto *w = new MessageWidget(message, m_host);
    connect(w, &MessageWidget::copyRequested, this, [this, w] {
        const qsizetype i = m_widgets.indexOf(w);
        if (i >= 0)
            emit copyRequested(int(i));
    });
    // Before the trailing stretch.
    m_layout->insertWidget(m_layout->count() - 1, w);
    m_widgets.append(w);
    updateEmptyHint();
}

void ChatTranscript::render(int index, const client::ChatMessage &message)
{
    if (MessageWidget *w = this->message(index))
        w->render(message);
}

void ChatTranscript::clear()
{
    for (MessageWidget *w : std::as_const(m_widgets))
        delete w;
    m_widgets.clear();
    updateEmptyHint();
}

MessageWidget *ChatTranscript::message(int index) const
{
    return index >= 0 && index < m_widgets.size() ? m_widgets[index] : nullptr;
}

void ChatTranscript::updateEmptyHint()
{
    m_emptyHint->setVisible(m_widgets.isEmpty());
}

} // namespace switchyard::ui
