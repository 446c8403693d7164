#pragma once

// The Keys view's table: one row per virtual key the gateway lists (docs/KEYS.md), with its limits and
// what it used, as the link last reported them. The model keeps no statistics of its own.
//
// The link is polled every few seconds; setKeys() changes rows in place by the key's id (dataChanged
// for a row that changed, inserts and removals for keys that came or went), so a poll never resets the
// table and the operator's selection, sort and scroll position stay where they were.
//
// (Named VirtualKeysModel: ui/config/keysmodel.h's KeysModel is the config form's table of static
// api_keys, a different thing.)

#include "keys/keyregistry.h"

#include <QAbstractTableModel>
#include <QList>
#include <functional>

namespace switchyard::ui {

class VirtualKeysModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VirtualKeysModel)

public:
    enum Column {
        Name,
        Id,
        Status,
        Models,
        Providers,
        Limits,
        Requests,
        Tokens,
        ThisMinute,
        Today,
        InFlight,
        Created,
        Expires,
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        SortRole = Qt::UserRole + 1, // a number (or lowercased text) to sort the column by
        IdRole,                      // the key's id, on every column
        KeyStatusRole,               // KeyStatus as int, on every column
    };

    enum class KeyStatus { Active, Revoked, Expired };
    Q_ENUM(KeyStatus)

    using WallClock = std::function<qint64()>; // ms since the epoch: when a key counts as expired

    explicit VirtualKeysModel(QObject *parent = nullptr);
    ~VirtualKeysModel() override;

    void setWallClock(WallClock clock) { m_clock = std::move(clock); }

    // The keys as the link listed them: rows changed in place by id; new ones appended, gone ones removed.
    void setKeys(const QList<keys::KeyListing> &keys);
    // One key made or changed (keyCreated, keyChanged): shown at once, before the next poll.
    void upsert(const keys::KeyListing &key);
    void clear();

    int rowOfId(const QString &id) const;
    const keys::KeyListing *listing(int row) const;
    KeyStatus status(int row) const;
    QList<keys::KeyListing> keys() const;

    static KeyStatus statusOf(const keys::VirtualKey &key, qint64 nowMs);
    // "60 req/min · 200k tokens/day · 4 at once", or "no limits" (translated).
    static QString limitsText(const keys::KeyLimits &limits);
    // 950, 12.5k, 200k, 3M, 1B: limits and counts that read at a glance.
    static QString compactNumber(qint64 n);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        keys::KeyListing listing;
        KeyStatus status = KeyStatus::Active;
    };

    static bool same(const Row &a, const Row &b);
    Row makeRow(const keys::KeyListing &listing, qint64 nowMs) const;
    qint64 now() const;
    QVariant display(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;
    QVariant toolTip(const Row &row, int column) const;

    QList<Row> m_rows;
    WallClock m_clock;
};

} // namespace switchyard::ui
