#pragma once

// The chat console's message box: the text being written, Send and Stop beside it, and the status line
// under it (which gateway, how many models, what just happened). Ctrl+Enter sends; Esc stops a reply
// while one streams (a plain Enter is a new line).

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace switchyard::ui {

class ChatComposer final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatComposer)

public:
    explicit ChatComposer(QWidget *parent = nullptr);

    QPlainTextEdit *input() const { return m_input; }
    // Whether Send can be used now (a gateway to send to, no reply streaming).
    void setSendEnabled(bool enabled);
    // A reply streams: Stop (and Esc in the box) can end it.
    void setBusy(bool busy);
    void setStatus(const QString &text);
    QString status() const;

signals:
    void sendRequested();
    void stopRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QPlainTextEdit *m_input;
    QPushButton *m_send;
    QPushButton *m_stop;
    QLabel *m_status;
    bool m_busy = false;
};

} // namespace switchyard::ui
