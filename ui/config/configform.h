#pragma once

// The config editor's form view: the providers (name, base URL, weight, models, timeout, retries, routing
// strategy), the selected provider's keys, and the gateway's listen address and default strategy.
//
// The form holds no config of its own. It reads what the JSON text says (through a JsonTextIndex, so it
// shows a config that is still being fixed, problems marked) and every change made here is sent out as
// JsonEdits on that text: the editor applies them as one undoable step, and the form follows the text.
// Secrets are never shown: a literal key value is "••••", an "env.NAME" reference is shown as itself and
// never resolved.

#include "config/configloader.h"
#include "jsonedit.h"
#include "jsontextindex.h"

#include <QAbstractTableModel>
#include <QStyledItemDelegate>
#include <QWidget>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace switchyard::ui {

// What the form shows, read from the text.
struct FormKey
{
    QString name;
    bool hasValue = false;
    bool valueIsRef = false;
    QString valueRef; // "env.NAME" as written (never the resolved secret)
    bool modelsSet = false;
    QStringList models; // as written; absent = every model
    std::optional<double> weight;
    QString weightText; // the JSON as written, when it is not a number
    bool enabled = true;
};

struct FormProvider
{
    QString name;
    QString baseUrl;
    std::vector<FormKey> keys;
    std::optional<int> timeoutSeconds; // default_request_timeout_in_seconds as written
    std::optional<int> maxRetries;
    bool keysReadable = true; // "keys" is an array
};

struct FormData
{
    bool readable = false; // the text is JSON with an object at the top
    std::vector<FormProvider> providers;
    QString listen;          // switchyard.listen as written, empty when absent
    QString defaultStrategy; // switchyard.routing.default_strategy as written, empty when absent
    QMap<QString, QString> strategyByModel;
};

FormData readForm(const JsonTextIndex &index);

// The strategy names the loader knows, and what the form calls them.
QStringList strategyIds();
QString strategyLabel(const QString &id);

// Which column an editor cell needs (the delegate asks the model).
enum class FormEditor { None, Text, Weight, Seconds, Retries, Strategy, Secret };
constexpr int FormEditorRole = Qt::UserRole + 1;

class ProvidersModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProvidersModel)

public:
    enum Column { Name, BaseUrl, Weight, Models, Timeout, Retries, Routing, ColumnCount };
    explicit ProvidersModel(QObject *parent = nullptr);

    void setForm(const FormData &form, const config::ConfigProblems &problems);
    const FormData &form() const { return m_form; }
    int rowOf(const QString &provider) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

    // The strategy shown for a provider: its models' (per-model or default).
    QString routingText(const FormProvider &p) const;

signals:
    void editRequested(const QList<switchyard::ui::JsonEdit> &edits);

private:
    FormData m_form;
    std::vector<QList<QPair<int, QString>>> m_problems; // per row: (column, message)
};

class KeysModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeysModel)

public:
    enum Column { Name, Value, Models, Weight, Enabled, ColumnCount };
    explicit KeysModel(QObject *parent = nullptr);

    // The keys of one provider (none: empty name).
    void setProvider(const FormProvider *provider, const config::ConfigProblems &problems);
    QString provider() const { return m_provider; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

signals:
    void editRequested(const QList<switchyard::ui::JsonEdit> &edits);

private:
    QString m_provider;
    std::vector<FormKey> m_keys;
    std::vector<QList<QPair<int, QString>>> m_problems;
};

// Editors that fit the cell: spin boxes for numbers, a strategy list, a secret field that starts empty.
class FormDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FormDelegate)

public:
    explicit FormDelegate(QObject *parent = nullptr) : QStyledItemDelegate(parent) {}
    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                          const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;
};

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
    QComboBox *strategyBox() const { return m_strategy; }

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
    QComboBox *m_strategy;
    config::ConfigProblems m_problems;
    QString m_selected; // kept across refreshes by name
};

} // namespace switchyard::ui
