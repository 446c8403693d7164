#pragma once

// File ▸ Connect to gateway…: the address of a headless gateway and its admin key. The address is
// checked as it is typed (http or https, a host, a port); the key is masked unless shown; "Remember
// the key" files it in the desktop's secret store and is switched off, with the reason, where there is
// none. Picking a recent gateway fills in its address and the key remembered for it. The dialog only
// asks: connecting, and remembering once connected, are the caller's (request()).

#include <QDialog>
#include <QUrl>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QToolButton;

namespace switchyard::ui {

class CredentialStore;
class RecentGateways;

struct ConnectRequest
{
    QUrl url;        // canonical: scheme://host:port
    QString key;     // may be empty (a loopback gateway without keys)
    bool remember = false;
};

class ConnectDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectDialog)

public:
    // Neither is owned; both must outlive the dialog.
    ConnectDialog(CredentialStore *credentials, RecentGateways *recent, QWidget *parent = nullptr);
    ~ConnectDialog() override;

    // What the operator asked for; valid once accepted.
    ConnectRequest request() const;

    void setUrl(const QString &url);

private:
    void validate();
    void pickRecent(QListWidgetItem *item);
    void onKeyLoaded(const QString &gatewayUrl, const QString &key, bool found);
    void updateRemember();
    void setKeyShown(bool shown);

    CredentialStore *m_credentials;
    RecentGateways *m_recent;
    QLineEdit *m_url;
    QLabel *m_urlProblem;
    QLineEdit *m_key;
    QToolButton *m_showKey;
    QCheckBox *m_remember;
    QLabel *m_rememberNote;
    QListWidget *m_recentList;
    QDialogButtonBox *m_buttons;
    QUrl m_parsed;
    // The gateway whose stored key is being looked up; a late answer for another one is ignored.
    QString m_loadingFor;
    bool m_keyEdited = false;
};

} // namespace switchyard::ui
