#pragma once

// The config editor's form view: the providers (name, base URL, weight, models, timeout, retries, routing
// strategy), the selected provider's keys, and the gateway's listen address and default strategy. What it
// reads is in formdata.h, its two tables in providersmodel.h and keysmodel.h, their cell editors in
// formdelegate.h.
//
// The form holds no config of its own. It reads what the JSON text says (through a JsonTextIndex, so it
// shows a config that is still being fixed, problems marked) and every change made here is sent out as
// JsonEdits on that text: the editor applies them as one undoable step, and the form follows the text.
// Secrets are never shown: a literal key value is "••••", an "env.NAME" reference is shown as itself and
// never resolved.

#include "config/configproblem.h"
#include "formdata.h"
#include "jsonedit.h"
#include "keysmodel.h"
#include "providersmodel.h"
#include "routingsettingsbox.h"
#include "storagesettingsbox.h"

#include <QWidget>

class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace switchyard::ui {

class ConfigForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfigForm)

public:
    explicit ConfigForm(QWidget *parent = nullptr);

    // Shows what the text says; unreadable: why (the form is replaced by that message).
    void setForm(const FormData &form, const config::ConfigProblems &problems,
                 const QString &unreadable = {});
    bool isReadable() const;
    QString unreadableText() const;

    ProvidersModel *providers() const { return m_providersModel; }
    KeysModel *keys() const { return m_keysModel; }
    QTableView *providersView() const { return m_providersView; }
    QTableView *keysView() const { return m_keysView; }
    QLineEdit *listenEdit() const { return m_listen; }
    // The panel was started with --listen (empty: not): that address wins over the field, and the form
    // says so instead of offering the config's default. inUse: where the gateway listens now, if running.
    void setListenOverride(const QString &listen, const QString &inUse);
    QString listenNote() const;
    QComboBox *strategyBox() const { return m_strategy; }
    RoutingSettingsBox *routingBox() const { return m_routing; }
    StorageSettingsBox *storageBox() const { return m_storage; }

    QString selectedProvider() const;
    void selectProvider(const QString &name);

    // The buttons' actions, also for tests.
    void addProvider();
    void removeSelectedProvider();
    void addKey();
    void removeSelectedKey();

signals:
    void editRequested(const QList<switchyard::ui::JsonEdit> &edits);

private:
    QWidget *buildPage();
    void setUpTables();
    QGroupBox *buildGatewayBox(QWidget *page);
    void connectSignals();
    void syncKeys();
    void syncButtons();
    QString uniqueProviderName() const;

    QStackedWidget *m_stack;
    QLabel *m_unreadable;
    ProvidersModel *m_providersModel;
    KeysModel *m_keysModel;
    QTableView *m_providersView;
    QTableView *m_keysView;
    QLabel *m_keysTitle;
    QPushButton *m_addProvider;
    QPushButton *m_removeProvider;
    QPushButton *m_addKey;
    QPushButton *m_removeKey;
    QLineEdit *m_listen;
    QLabel *m_listenNote;
    QComboBox *m_strategy;
    RoutingSettingsBox *m_routing;
    StorageSettingsBox *m_storage;
    config::ConfigProblems m_problems;
    QString m_selected; // kept across refreshes by name
};

} // namespace switchyard::ui
