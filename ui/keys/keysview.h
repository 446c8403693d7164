#pragma once

// The Keys view: the gateway's virtual keys (docs/KEYS.md) as its link lists them, with what each one
// used, a chart of the keys that used the most tokens, and the commands an operator needs: make a key
// (its secret shown once, in SecretDialog), change its limits, revoke it.
//
// It shows only what the link gives: it polls fetchKeys() every PollMs while it is on screen (one
// listing in flight at most) and not at all while hidden. A link with no keys to manage (a fleet
// window) refuses, and the view shows why instead of an empty table.

#include "keys/keyregistry.h"

#include <QList>
#include <QPointer>
#include <QWidget>
#include <tuple>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QHorizontalStackedBarSeries;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;
class QValueAxis;

namespace switchyard::link {
class GatewayLink;
}

namespace switchyard::ui {

class KeyDialog;
class SecretDialog;
class VirtualKeysModel;

class KeysView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeysView)

public:
    static constexpr int PollMs = 2000;
    static constexpr int ChartKeys = 10; // the chart shows the keys that used the most tokens

    explicit KeysView(QWidget *parent = nullptr);
    ~KeysView() override;

    // Not owned. May be called again with another link (or null): the old one is let go.
    void setLink(link::GatewayLink *link);
    link::GatewayLink *gatewayLink() const { return m_link; }

    // The dialogs, opened window-modal; they delete themselves when closed. Returned for tests.
    KeyDialog *openNewKeyDialog();
    KeyDialog *openEditDialog(); // the selected key; null without one (or when it is revoked)
    void revokeSelected();       // asks first, naming the key
    SecretDialog *secretDialog() const; // the secret shown now, if any

    VirtualKeysModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    QChart *chart() const { return m_chart; }
    QHorizontalStackedBarSeries *tokenSeries() const { return m_series; }
    QLabel *statusLabel() const { return m_status; }
    // What is shown instead of the table: no keys yet (what they are), or the link's refusal.
    QLabel *messageLabel() const { return m_message; }
    bool isShowingTable() const;
    QString selectedKeyId() const;
    bool isPolling() const;
    // Columns sized to their content, the long ones narrowed so that all of them fit the table's width.
    void fitColumns();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void poll();
    void onKeysFetched(const QList<keys::KeyListing> &keys);
    void onKeyCreated(const keys::KeyListing &key, const QString &secret);
    void onKeyChanged(const keys::KeyListing &key);
    void onCommandFinished(const QString &what, bool ok, const QString &message);
    void setStatus(const QString &text, bool failed);
    void updatePage();
    void updateActions();
    void updateChart();
    QString keyName(const QString &id) const;
    void suggest(KeyDialog *dialog) const;

    QPointer<link::GatewayLink> m_link;
    VirtualKeysModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTimer *m_poll;
    QStackedWidget *m_pages;
    QLabel *m_message;
    QPushButton *m_emptyNewKey;
    QTableView *m_table;
    QChart *m_chart;
    QChartView *m_chartView;
    QHorizontalStackedBarSeries *m_series;
    QBarSet *m_prompt;
    QBarSet *m_completion;
    QBarCategoryAxis *m_keysAxis;
    QValueAxis *m_tokensAxis;
    QPushButton *m_newKey;
    QPushButton *m_edit;
    QPushButton *m_revoke;
    QLabel *m_status;
    QPointer<SecretDialog> m_secretDialog;
    bool m_fetching = false; // a listing was asked for and not answered yet
    bool m_fitPending = false; // rows came since the columns were last fitted
    bool m_listed = false;   // the link listed keys at least once
    QString m_refusal;       // why the link could not list keys, until it lists them again
    QList<std::tuple<QString, qint64, qint64>> m_charted; // what the chart shows: only redrawn when it changes
};

} // namespace switchyard::ui
