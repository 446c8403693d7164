#pragma once

// The one time a virtual key's secret is shown: right after the key was made. The gateway keeps only
// its SHA-256 and the panel keeps nothing, so the dialog says so, offers Copy, and asks before closing
// if the secret was never copied. The secret lives in this dialog's line edit only (no model, no log).

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace switchyard::ui {

class SecretDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretDialog)

public:
    SecretDialog(const QString &keyName, const QString &secret, QWidget *parent = nullptr);
    ~SecretDialog() override;

    bool wasCopied() const { return m_copied; }
    QLineEdit *secretEdit() const { return m_secret; }
    QPushButton *copyButton() const { return m_copy; }
    QPushButton *closeButton() const { return m_close; }

    // Closing (Close, Escape, the window's ×) without Copy asks first; No keeps the dialog open.
    void done(int result) override;

private:
    void copy();

    QLineEdit *m_secret;
    QPushButton *m_copy;
    QPushButton *m_close;
    bool m_copied = false;
    bool m_asking = false;
};

} // namespace switchyard::ui
