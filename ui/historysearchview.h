#pragma once

// The Requests view's second page: a search of the gateway's lasting history (docs/HISTORY.md), for the
// questions the live log cannot answer once its last few thousand requests have scrolled away — what did
// key X do yesterday, which requests failed on node b last night. A time range (a recent span or from–to),
// key, model, node and outcome; results a page at a time, newest first, with "Older" for the next page;
// the same detail pane as the live log; "Export CSV…" writes every row shown.
//
// The view asks and shows; it never touches the gateway or the file: searchRequested goes to the window's
// GatewayLink (local or remote), whose historySearched comes back through showResult().

#include "history/historyquery.h"
#include "link/gatewaylink.h"

#include <QWidget>
#include <functional>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace switchyard::ui {

class RequestsModel;
class RequestsFilterModel;

class HistorySearchView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistorySearchView)

public:
    // Rows kept at most: "Older" stops there (a search that wide is an export: the API pages on).
    static constexpr int MaxRows = 20'000;
    static constexpr int PageSize = 500;

    explicit HistorySearchView(QWidget *parent = nullptr);

    // Where "Export CSV…" writes: the path the operator chose, or empty for cancel. A save dialog by
    // default; tests set one that answers without a dialog.
    using FileChooser = std::function<QString(const QString &suggestedName)>;
    void setFileChooser(FileChooser chooser) { m_chooser = std::move(chooser); }
    // "Now" for a recent span (tests move it).
    void setClock(std::function<qint64()> nowMs) { m_nowMs = std::move(nowMs); }

    // The query the filters describe now (without paging).
    history::HistoryQuery query() const;

    // Starts a new search from the filters (as the Search button does).
    void search();
    // The next (older) page of the current search.
    void loadOlder();
    // An answer from the link; answers to searches since replaced are dropped.
    void showResult(const link::HistorySearchResult &result);
    // Writes the rows shown as CSV to path; false and *error when it could not.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    RequestsModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPlainTextEdit *detail() const { return m_detail; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *olderButton() const { return m_older; }
    QComboBox *spanBox() const { return m_span; }
    QComboBox *outcomeBox() const { return m_outcome; }
    QLineEdit *keyEdit() const { return m_key; }
    QLineEdit *modelEdit() const { return m_modelEdit; }
    QLineEdit *nodeEdit() const { return m_node; }

signals:
    void searchRequested(quint64 ticket, const switchyard::history::HistoryQuery &query);

private:
    void ask(const history::HistoryQuery &query);
    void updateControls();
    void updateDetail();
    void exportInteractive();

    RequestsModel *m_model;
    RequestsFilterModel *m_sorted;
    QComboBox *m_span;
    QDateTimeEdit *m_from;
    QDateTimeEdit *m_to;
    QLineEdit *m_key;
    QLineEdit *m_modelEdit;
    QLineEdit *m_node;
    QComboBox *m_outcome;
    QPushButton *m_search;
    QPushButton *m_older;
    QPushButton *m_export;
    QLabel *m_status;
    QTableView *m_table;
    QPlainTextEdit *m_detail;
    FileChooser m_chooser;
    std::function<qint64()> m_nowMs;

    quint64 m_ticket = 0; // the search whose answer is awaited (or was last shown)
    bool m_waiting = false;
    history::HistoryQuery m_current; // the search shown, for "Older"
    qint64 m_nextBeforeId = 0;       // 0: no older page
};

} // namespace switchyard::ui
