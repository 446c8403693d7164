#pragma once

// The pane under the config editor: a header that sums up the last check, and one row per problem
// ("line:column  path: message", the loader's own words in the tooltip). Clicking or activating a row asks
// to go to that problem in the text; the editor decides the words of the header.

#include "locatedproblem.h"

#include <QWidget>

class QLabel;
class QListWidget;

namespace switchyard::ui {

class ProblemsPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProblemsPane)

public:
    // listToolTip: what the list says it is for (the editor's words, in its translation).
    explicit ProblemsPane(const QString &listToolTip, QWidget *parent = nullptr);

    void setHeader(const QString &text); // while a check runs
    void showProblems(const QList<LocatedProblem> &problems, const QString &header);
    QListWidget *list() const { return m_list; }

signals:
    void problemActivated(int row);

private:
    QLabel *m_header;
    QListWidget *m_list;
};

} // namespace switchyard::ui
