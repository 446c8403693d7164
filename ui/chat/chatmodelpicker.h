#pragma once

// The chat console's model box: where a message goes. A bare model name goes to the pool of nodes that
// serve it (the gateway balances and fails over); "provider/model" pins one node. The gateway's list is
// offered pools first, then the pinned names, each saying who answers; any name can be typed, because a
// wildcard provider serves names the list cannot show.

#include <QComboBox>

namespace switchyard::client {
struct ModelEntry;
}

namespace switchyard::ui {

class ChatModelPicker final : public QComboBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatModelPicker)

public:
    explicit ChatModelPicker(QWidget *parent = nullptr);

    // Offers these models and shows keep (what the operator chose or typed); with keep empty, the first
    // pool, else the first pinned name. Emits no change signals.
    void setModels(const QList<client::ModelEntry> &models, const QString &keep);
    QString currentModel() const { return currentText().trimmed(); }

private:
    void addModel(const QString &id, const QString &toolTip);
};

} // namespace switchyard::ui
