#pragma once

// The Gateways view's table: one row per gateway the panel watches (this process's, remote ones, a
// fleet of replicas), each seen through its GatewayLink: whether the panel reaches it and why not, its
// version, the hash of the config it runs, requests/s, errors/s, p95 latency and how many nodes are up.
// When the gateways run different configs (drift), the rows that differ from the rest are marked and
// driftSummary() says which gateways run which config.
//
// Links poll a few times a second each; the model takes what they last said on one timer
// (CoalesceMs), so a fleet of ten gateways still means a few repaints a second.

#include "link/gatewaylink.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>

class QTimer;

namespace switchyard::ui {

class GatewaysModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewaysModel)

public:
    static constexpr int CoalesceMs = 250;

    enum Column { Gateway, Link, Version, Config, RequestsPerSec, ErrorsPerSec, LatencyP95, NodesUp, ColumnCount };
    Q_ENUM(Column)

    enum Role {
        SortRole = Qt::UserRole + 1, // a number (or text) to sort the column by
        LinkStateRole,               // link::LinkState as int, on every column
        DriftRole,                   // bool: this gateway's config differs from the others'
        ConfigHashRole,              // the full hash
    };

    explicit GatewaysModel(QObject *parent = nullptr);
    ~GatewaysModel() override;

    // Not owned; a link that is destroyed leaves the table by itself. Adding one twice does nothing.
    void addGateway(link::GatewayLink *link);
    void removeGateway(link::GatewayLink *link);
    QList<link::GatewayLink *> gateways() const;
    link::GatewayLink *gateway(int row) const;
    int rowOf(const link::GatewayLink *link) const;

    // True while the gateways that answered run more than one config.
    bool hasDrift() const { return !m_driftSummary.isEmpty(); }
    // "gw-a runs config 1a2b3c4d; gw-b runs 9f8e7d6c" (translated); empty without drift.
    QString driftSummary() const { return m_driftSummary; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void driftChanged(bool drift, const QString &summary);

private:
    struct Row
    {
        link::GatewayLink *link = nullptr;
        QPointer<link::GatewayLink> alive;
        std::optional<link::GatewayStatus> status;
        link::LinkStatus linkStatus;
        QString label;
        bool drift = false;
        QString driftTip; // which gateways run which config, from this row's point of view
    };

    void schedule();
    void refresh();
    void computeDrift();
    QVariant display(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;
    QVariant toolTip(const Row &row, int column) const;

    QList<Row> m_rows;
    QTimer *m_coalesce;
    QString m_driftSummary;
};

} // namespace switchyard::ui
