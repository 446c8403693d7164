#pragma once

// The request log: recent client requests (bounded), filterable by text and by outcome, newest first,
// with a detail pane showing the selected request's routing (every node tried and what each answered),
// status, timing and tokens. A second page searches the gateway's lasting history (HistorySearchView).

#include "stats/requestrecord.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSplitter;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace switchyard::ui {

class HistorySearchView;
class RequestsModel;
class RequestsFilterModel;

class RequestsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestsView)

public:
    explicit RequestsView(QWidget *parent = nullptr);

    RequestsModel *model() const { return m_model; }
    RequestsFilterModel *filter() const { return m_filter; }
    QTableView *table() const { return m_table; }
    QPlainTextEdit *detail() const { return m_detail; }
    // The second page: a search of the gateway's lasting history.
    HistorySearchView *historySearch() const { return m_history; }
    void showHistorySearch(bool show);

    // A table of requests (its model set): whole rows, one at a time, sorted newest first.
    static void setUpRequestsTable(QTableView *table);
    // The request table over the detail pane (read-only, monospace), as the live log and the history
    // search both show them.
    static QSplitter *tableOverDetail(QWidget *parent, QTableView *table, QPlainTextEdit *detail);

    void append(const QList<stats::RequestRecord> &records, qint64 dropped = 0);

private:
    void updateDetail();
    void updateCount();

    RequestsModel *m_model;
    RequestsFilterModel *m_filter;
    QLineEdit *m_filterEdit;
    QCheckBox *m_failuresOnly;
    QLabel *m_count;
    QTableView *m_table;
    QPlainTextEdit *m_detail;
    HistorySearchView *m_history;
    QStackedWidget *m_pages;
    QToolButton *m_liveButton;
    QToolButton *m_historyButton;
    qint64 m_dropped = 0;
};

} // namespace switchyard::ui
