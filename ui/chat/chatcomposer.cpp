#include "chatcomposer.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

ChatComposer::ChatComposer(QWidget *parent)
    : QWidget(parent), m_input(new QPlainTextEdit(this)), m_send(new QPushButton(tr("Send"), this)),
      m_stop(new QPushButton(tr("Stop"), this)), m_status(new QLabel(this))
{
    m_input->setObjectName(u"chatInput"_s);
    m_input->setPlaceholderText(tr("Message \u2014 Ctrl+Enter sends, Esc stops a reply"));
    m_input->setTabChangesFocus(true);
    m_input->installEventFilter(this);
    m_input->setMinimumHeight(fontMetrics().lineSpacing() * 2 + 14);
    m_send->setObjectName(u"chatSend"_s);
    m_send->setToolTip(tr("Send (Ctrl+Enter)"));
    m_send->setDefault(false);
    connect(m_send, &QPushButton::clicked, this, &ChatComposer::sendRequested);
    m_stop->setObjectName(u"chatStop"_s);
    m_stop->setToolTip(tr("Stop the reply (Esc): the request is aborted and the node stops generating"));
    m_stop->setEnabled(false);
    connect(m_stop, &QPushButton::clicked, this, &ChatComposer::stopRequested);
    m_status->setObjectName(u"chatStatus"_s);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette p = m_status->palette();
    p.setColor(QPalette::WindowText, p.color(QPalette::PlaceholderText));
    m_status->setPalette(p);

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_send);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    auto *inputRow = new QHBoxLayout;
    inputRow->setContentsMargins(0, 0, 0, 0);
    inputRow->addWidget(m_input, 1);
    inputRow->addLayout(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(inputRow, 1);
    layout->addWidget(m_status);
}

void ChatComposer::setSendEnabled(bool enabled)
{
    m_send->setEnabled(enabled);
}

void ChatComposer::setBusy(bool busy)
{
    m_busy = busy;
    m_stop->setEnabled(busy);
}

void ChatComposer::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString ChatComposer::status() const
{
    return m_status->text();
}

bool ChatComposer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        if (enter && (key->modifiers() & Qt::ControlModifier)) {
            emit sendRequested();
            return true;
        }
        if (key->key() == Qt::Key_Escape && m_busy) {
            emit stopRequested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace switchyard::ui
