#pragma once

// The "changed on disk" bar above the config editor: a plain bar, not a modal question in the middle of
// typing. It says what happened and offers Reload and "Keep my version" (or only Dismiss when there is
// nothing to reload); the editor decides the words and what the buttons do.

#include <QFrame>

class QLabel;
class QPushButton;

namespace switchyard::ui {

class ExternalChangeBar final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExternalChangeBar)

public:
    // reloadLabel: the Reload button's text (the editor's words, in its translation).
    explicit ExternalChangeBar(const QString &reloadLabel, QWidget *parent = nullptr);

    // keepLabel: the other button's text ("Keep my version", "Dismiss").
    void showChange(const QString &text, bool offerReload, const QString &keepLabel);
    void dismiss();
    QString text() const; // empty when hidden

signals:
    void reloadClicked();
    void keepClicked();

private:
    QLabel *m_text;
    QPushButton *m_reload;
    QPushButton *m_keep;
};

} // namespace switchyard::ui
