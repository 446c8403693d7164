#include "chatmodelpicker.h"

#include "chat/chatclient.h"

#include <QLineEdit>
#include <QSignalBlocker>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

ChatModelPicker::ChatModelPicker(QWidget *parent) : QComboBox(parent)
{
    setObjectName(u"chatModel"_s);
    setEditable(true);
    setInsertPolicy(QComboBox::NoInsert);
    setMinimumContentsLength(26);
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    lineEdit()->setPlaceholderText(tr("model, or provider/model"));
    setToolTip(tr("A bare model name goes to the pool of nodes serving it (the gateway balances and fails "
                  "over); \"provider/model\" pins one node."));
}

void ChatModelPicker::setModels(const QList<client::ModelEntry> &models, const QString &keep)
{
    QList<client::ModelEntry> pool;
    QList<client::ModelEntry> pinned;
    for (const client::ModelEntry &m : models)
        (m.pinned() ? pinned : pool).append(m);

    const QSignalBlocker block(this);
    clear();
    for (const client::ModelEntry &m : std::as_const(pool))
        addModel(m.id, tr("Pool: the gateway picks among %1 and fails over").arg(m.providers.join(u", "_s)));
    if (!pool.isEmpty() && !pinned.isEmpty())
        insertSeparator(count());
    for (const client::ModelEntry &m : std::as_const(pinned))
        addModel(m.id, tr("Pinned: only the node %1 answers, no failover").arg(m.providers.value(0)));
    if (!keep.isEmpty())
        setCurrentText(keep);
    else if (!pool.isEmpty())
        setCurrentText(pool.first().id);
    else if (!pinned.isEmpty())
        setCurrentText(pinned.first().id);
}

void ChatModelPicker::addModel(const QString &id, const QString &toolTip)
{
    addItem(id, id);
    setItemData(count() - 1, toolTip, Qt::ToolTipRole);
}

} // namespace switchyard::ui
