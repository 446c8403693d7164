#include "formdelegate.h"

#include "formdata.h"
#include "formtablemodel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

QWidget *FormDelegate::createEditor(QWidget *parent, const QStyleOptionViewItem &option,
                                    const QModelIndex &index) const
{
    switch (FormEditor(index.data(FormEditorRole).toInt())) {
    case FormEditor::Weight: {
        auto *spin = new QDoubleSpinBox(parent);
        spin->setRange(0, 1'000'000);
        spin->setDecimals(3);
        spin->setFrame(false);
        return spin;
    }
    case FormEditor::Seconds: {
        auto *spin = new QSpinBox(parent);
        spin->setRange(1, 86'400);
        spin->setSuffix(tr(" s"));
        spin->setFrame(false);
        return spin;
    }
    case FormEditor::Retries: {
        auto *spin = new QSpinBox(parent);
        spin->setRange(0, 100);
        spin->setFrame(false);
        return spin;
    }
    case FormEditor::Strategy: {
        auto *box = new QComboBox(parent);
        box->addItem(tr("default"), QString());
        for (const QString &id : strategyIds())
            box->addItem(strategyLabel(id), id);
        return box;
    }
    case FormEditor::Secret: {
        auto *edit = new QLineEdit(parent);
        edit->setFrame(false);
        edit->setPlaceholderText(tr("new secret, or env.NAME (empty keeps the current value)"));
        edit->setEchoMode(QLineEdit::Password);
        // A reference is not secret: show it as typed.
        connect(edit, &QLineEdit::textChanged, edit, [edit](const QString &text) {
            edit->setEchoMode(text.startsWith(u"env."_s) || u"env."_s.startsWith(text) ? QLineEdit::Normal
                                                                                       : QLineEdit::Password);
        });
        return edit;
    }
    case FormEditor::Text:
    case FormEditor::None:
        break;
    }
    return QStyledItemDelegate::createEditor(parent, option, index);
}

void FormDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    if (auto *box = qobject_cast<QComboBox *>(editor)) {
        box->setCurrentIndex(std::max(0, box->findData(index.data(Qt::EditRole).toString())));
        return;
    }
    if (auto *edit = qobject_cast<QLineEdit *>(editor);
        edit && FormEditor(index.data(FormEditorRole).toInt()) == FormEditor::Secret) {
        edit->setText(index.data(Qt::EditRole).toString());
        return;
    }
    QStyledItemDelegate::setEditorData(editor, index);
}

void FormDelegate::setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const
{
    if (auto *box = qobject_cast<QComboBox *>(editor)) {
        model->setData(index, box->currentData(), Qt::EditRole);
        return;
    }
    QStyledItemDelegate::setModelData(editor, model, index);
}

} // namespace switchyard::ui
