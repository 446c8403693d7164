#pragma once

// The recent client requests, newest last, bounded: appending past the capacity removes the oldest rows
// first (rowsRemoved at the top, then rowsInserted at the bottom), so the log never grows with uptime.
// RequestsFilterModel on top filters by text and by outcome and shows the newest first.

#include "stats/requestrecord.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <deque>
#include <optional>

namespace switchyard::ui {

class RequestsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestsModel)

public:
    enum Column { Time, Endpoint, Model, Node, Route, Status, Attempts, Ttft, Duration, Tokens, Error, ColumnCount };
    Q_ENUM(Column)
    enum Role { SortRole = Qt::UserRole + 1, FailedRole, SearchTextRole };

    static constexpr int DefaultCapacity = 2000;

    explicit RequestsModel(QObject *parent = nullptr, int capacity = DefaultCapacity);

    int capacity() const { return m_capacity; }
    void setCapacity(int capacity);
    // The Time column with the date too: the history spans days, the live log minutes.
    void setShowsDate(bool showsDate) { m_showsDate = showsDate; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void append(const QList<stats::RequestRecord> &records);
    void clear();
    const stats::RequestRecord *record(int row) const;

    // What "Failures only" shows: every request the client saw fail — no response, an error status
    // (4xx, 5xx, and 499 when the client gave up waiting), or a stream that began and was then cut.
    // A request that failed over and was answered is no failure (its attempts are in its detail).
    static bool isFailure(const stats::RequestRecord &r)
    {
        return r.status == 0 || r.status >= 400 || r.cutMidAnswer();
    }
    // The record as text for the detail pane: request line, routing and every node tried, status,
    // timing, tokens.
    static QString describe(const stats::RequestRecord &r);
    // Why the routing strategy chose the first node ("session", "prefix 87%" …), in the panel's language.
    static QString routeText(const QString &reason);
    // One node tried: "b: failed: HTTP 500: … (12 ms)".
    static QString describeAttempt(const stats::Attempt &a);
    // Tokens per second of the stream's generation, when its window is long enough to mean anything.
    static std::optional<double> generationSpeed(const stats::RequestRecord &r);

private:
    void trimTo(int size);
    static QString answeredBy(const stats::RequestRecord &r);

    int m_capacity;
    bool m_showsDate = false;
    std::deque<stats::RequestRecord> m_records;
};

class RequestsFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestsFilterModel)

public:
    explicit RequestsFilterModel(QObject *parent = nullptr);

    void setText(const QString &text);       // matches endpoint, model, node, status and error
    void setFailuresOnly(bool failuresOnly);
    QString text() const { return m_text; }
    bool failuresOnly() const { return m_failuresOnly; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    bool m_failuresOnly = false;
};

} // namespace switchyard::ui
