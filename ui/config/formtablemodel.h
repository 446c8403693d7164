#pragma once

// What the form's two tables (the providers, and the selected provider's keys) have in common: rows read
// from the text with the problems found under each, cells that show those problems, a header from column
// titles, and changes sent out as JsonEdits on the text rather than made in place.

#include "config/configproblem.h"
#include "jsonedit.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPair>
#include <QStringList>
#include <functional>
#include <vector>

namespace switchyard::ui {

// Which editor a cell needs (the delegate asks the model).
enum class FormEditor { None, Text, Weight, Seconds, Retries, Strategy, Secret };
constexpr int FormEditorRole = Qt::UserRole + 1;

// The problems under one row: (column it is about, message) each.
using RowProblems = QList<QPair<int, QString>>;

// Problems under one provider (and one key, when keyIndex >= 0), each with the column it is about;
// columnOf gets the rest of the problem's path below the provider (or the key).
RowProblems problemsFor(const config::ConfigProblems &problems, const QString &provider, int keyIndex,
                        const std::function<int(const JsonPath &rest)> &columnOf);

// A list of models as the form shows it ("every model (*)" for "*"), and as it reads one the operator
// typed (comma-separated; nothing means every model).
QString modelsText(const QStringList &models);
QStringList parseModels(const QString &text);

class FormTableModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FormTableModel)

public:
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    void editRequested(const QList<switchyard::ui::JsonEdit> &edits);

protected:
    // nameColumn: the column that carries a row's problem icon and all of its messages.
    FormTableModel(int columnCount, int nameColumn, QObject *parent);

    // The header's titles, one per column (translated by the table).
    virtual QStringList columnTitles() const = 0;

    // Replaces the rows: `assign` stores the new ones. With sameRows (the same names in the same order)
    // the cells are updated in place, so a selection or an open editor survives; otherwise the model resets.
    void setRows(bool sameRows, std::vector<RowProblems> problems, const std::function<void()> &assign);

    // A cell's problem roles: a tinted background where a problem is about the cell, a warning icon on the
    // name column of a row with problems; an empty value for other roles.
    QVariant problemData(const QModelIndex &index, int role) const;
    // A cell's tooltip: the messages of the problems about it (all of the row's on the name column), then
    // `notes`; empty when there is neither.
    QVariant toolTip(const QModelIndex &index, const QStringList &notes = {}) const;

    // Sends edits out (true), or nothing when there are none (false): setData's answer.
    bool requestEdits(const QList<JsonEdit> &edits);

private:
    int m_columnCount;
    int m_nameColumn;
    std::vector<RowProblems> m_problems; // per row
};

} // namespace switchyard::ui
