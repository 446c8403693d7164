#pragma once

// The editors of the form's table cells, chosen by what the model says a cell needs (FormEditorRole):
// spin boxes for numbers, a strategy list, a secret field that starts empty.

#include <QStyledItemDelegate>

namespace switchyard::ui {

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

} // namespace switchyard::ui
