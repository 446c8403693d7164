#pragma once

// The Benchmark tab's "Targets" box: what a run measures. Each node of the gateway's config is offered
// directly, next to the gateway's weighted pool (while the gateway runs), plus any other server the
// operator adds by URL. Check states survive a refresh for targets still there.

#include "bench/benchtypes.h"

#include <QGroupBox>
#include <optional>

class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace switchyard {
class Gateway;
}

namespace switchyard::ui {

class BenchmarkTargetPicker final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchmarkTargetPicker)

public:
    // gateway may be null (other servers only); it must outlive the picker.
    explicit BenchmarkTargetPicker(Gateway *gateway, QWidget *parent = nullptr);

    // Re-reads the nodes and the gateway's pool; targets added by URL stay.
    void refresh();
    // A remote gateway the panel is attached to (its nodes are not reachable from here): offered as
    // one target, measured through the gateway like any client.
    void setRemoteGateway(const bench::Target &target);
    // Checks exactly the targets whose labels are given (all when empty).
    void setCheckedTargets(const QStringList &labels);
    QStringList targetLabels() const;
    QList<bench::Target> checkedTargets() const;
    bool anyChecked() const;
    // While a run goes on the list and the URL field are locked.
    void setEditable(bool editable);

signals:
    void checksChanged();
    // Something the operator typed is not usable, in words for the status line.
    void problem(const QString &text);

private:
    struct GatewayTargets;
    GatewayTargets gatewayTargets() const;
    void addCustomTarget();
    QListWidgetItem *addItem(const bench::Target &target, const QString &shownLabel, bool custom,
                             Qt::CheckState state);

    Gateway *m_gateway;
    std::optional<bench::Target> m_remote;
    QListWidget *m_list;
    QLineEdit *m_customUrl;
};

} // namespace switchyard::ui
