#include "bench/benchmarktargetpicker.h"

#include "bench/benchtargets.h"
#include "gateway.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalBlocker>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// PinRole: an https:// gateway's certificate pin, which a target must keep to be reached at all.
enum TargetRole { LabelRole = Qt::UserRole + 1, UrlRole, ModelRole, KeyRole, PinRole, CustomRole };

bench::Target targetOf(const QListWidgetItem *item)
{
    return bench::Target{item->data(LabelRole).toString(), item->data(UrlRole).toString(),
                         item->data(ModelRole).toString(), item->data(KeyRole).toString(),
                         item->data(PinRole).toByteArray()};
}

// A target is the same one again when it has the same address and model.
QString identity(const QString &baseUrl, const QString &model)
{
    return baseUrl % u'|' % model;
}

} // namespace

// What the gateway offers to measure: its nodes, and its pool while it runs.
struct BenchmarkTargetPicker::GatewayTargets
{
    QList<bench::Target> targets;
    QString poolLabel;   // the pool's label is data (results, exports) …
    QString poolDisplay; // … the list shows it translated, with its node count
    QString poolNote;    // set when the pool exists but cannot be measured now
};

BenchmarkTargetPicker::BenchmarkTargetPicker(Gateway *gateway, QWidget *parent)
    : QGroupBox(tr("Targets"), parent), m_gateway(gateway), m_list(new QListWidget(this)),
      m_customUrl(new QLineEdit(this))
{
    m_list->setObjectName(u"benchTargets"_s);
    m_list->setToolTip(tr("Each node is measured directly; the gateway pool goes through Switchyard's "
                          "weighted round-robin over the nodes serving its model."));
    connect(m_list, &QListWidget::itemChanged, this, &BenchmarkTargetPicker::checksChanged);
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 7);

    m_customUrl->setObjectName(u"benchCustomUrl"_s);
    m_customUrl->setPlaceholderText(tr("Other server: http://host:port"));
    connect(m_customUrl, &QLineEdit::returnPressed, this, &BenchmarkTargetPicker::addCustomTarget);
    auto *addButton = new QToolButton(this);
    addButton->setText(tr("Add"));
    connect(addButton, &QToolButton::clicked, this, &BenchmarkTargetPicker::addCustomTarget);
    auto *refreshButton = new QToolButton(this);
    refreshButton->setText(tr("Refresh"));
    refreshButton->setToolTip(tr("Re-read the nodes and the gateway's address"));
    connect(refreshButton, &QToolButton::clicked, this, &BenchmarkTargetPicker::refresh);

    auto *customRow = new QHBoxLayout();
    customRow->addWidget(m_customUrl, 1);
    customRow->addWidget(addButton);
    customRow->addWidget(refreshButton);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addLayout(customRow);
}

BenchmarkTargetPicker::GatewayTargets BenchmarkTargetPicker::gatewayTargets() const
{
    GatewayTargets out;
    if (!m_gateway && m_remote) {
        out.targets << *m_remote;
        out.poolLabel = m_remote->label;
        out.poolDisplay = tr("remote gateway %1").arg(m_remote->baseUrl);
        return out;
    }
    if (!m_gateway)
        return out;
    const config::GatewayConfig &cfg = m_gateway->config();
    const GatewaySnapshot snap = m_gateway->snapshot();
    for (const NodeSnapshot &n : snap.nodes) {
        const config::ProviderConfig *p = cfg.provider(n.name);
        bench::Target t = p ? bench::nodeTarget(*p) : bench::Target{n.name, n.baseUrl, QString(), QString()};
        t.baseUrl = n.baseUrl;
        if (t.model.isEmpty() && !n.models.isEmpty() && n.models.first() != u"*")
            t.model = n.models.first();
        out.targets << t;
    }
    if (!m_gateway->isRunning()) {
        out.poolNote = tr("gateway pool (start the gateway to measure it)");
        return out;
    }
    if (auto pool = bench::poolTarget(cfg, m_gateway->listenUrl())) {
        const auto serves = [&](const config::ProviderConfig &p) {
            return std::any_of(p.keys.begin(), p.keys.end(),
                               [&](const config::KeyConfig &k) { return k.models.contains(pool->model); });
        };
        const int nodes = int(std::count_if(cfg.providers.begin(), cfg.providers.end(), serves));
        out.poolLabel = pool->label;
        out.poolDisplay = nodes > 1    ? tr("gateway pool (%1 nodes)").arg(nodes)
                          : nodes == 1 ? tr("gateway pool (1 node)")
                                       : tr("gateway");
        out.targets << *pool;
    }
    return out;
}

void BenchmarkTargetPicker::setRemoteGateway(const bench::Target &target)
{
    m_remote = target;
    refresh();
}

void BenchmarkTargetPicker::refresh()
{
    QHash<QString, Qt::CheckState> previous;
    QList<bench::Target> custom;
    for (int i = 0; i < m_list->count(); ++i) {
        const QListWidgetItem *it = m_list->item(i);
        previous.insert(identity(it->data(UrlRole).toString(), it->data(ModelRole).toString()), it->checkState());
        if (it->data(CustomRole).toBool())
            custom << targetOf(it);
    }
    const GatewayTargets offered = gatewayTargets();

    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        for (const bench::Target &t : offered.targets) {
            const bool isPool = !offered.poolLabel.isEmpty() && t.label == offered.poolLabel;
            addItem(t, isPool ? offered.poolDisplay : t.label, false,
                    previous.value(identity(t.baseUrl, t.model), Qt::Checked));
        }
        for (const bench::Target &t : std::as_const(custom))
            addItem(t, t.label, true, previous.value(identity(t.baseUrl, t.model), Qt::Checked));
        if (!offered.poolNote.isEmpty()) {
            auto *item = new QListWidgetItem(offered.poolNote, m_list);
            item->setFlags(Qt::NoItemFlags); // shown, so the operator knows the pool exists, but not selectable
        }
    }
    emit checksChanged();
}

QListWidgetItem *BenchmarkTargetPicker::addItem(const bench::Target &target, const QString &shownLabel, bool custom,
                                                Qt::CheckState state)
{
    auto *item = new QListWidgetItem(m_list);
    const QString model = target.model.isEmpty() ? tr("model from /v1/models") : target.model;
    item->setText(u"%1 — %2 · %3"_s.arg(shownLabel, target.baseUrl, model));
    item->setData(LabelRole, target.label);
    item->setData(UrlRole, target.baseUrl);
    item->setData(ModelRole, target.model);
    item->setData(KeyRole, target.apiKey);
    item->setData(PinRole, target.pinnedSha256);
    item->setData(CustomRole, custom);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(state);
    return item;
}

void BenchmarkTargetPicker::addCustomTarget()
{
    const QString text = m_customUrl->text().trimmed();
    if (text.isEmpty())
        return;
    const QUrl url(text);
    if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https") || url.host().isEmpty()) {
        emit problem(tr("Not an http(s) URL: %1").arg(text));
        return;
    }
    const QString label = url.host() % (url.port() > 0 ? u':' % QString::number(url.port()) : QString());
    addItem(bench::Target{label, text, QString(), QString()}, label, true, Qt::Checked);
    m_customUrl->clear();
}

void BenchmarkTargetPicker::setCheckedTargets(const QStringList &labels)
{
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *it = m_list->item(i);
        if (!(it->flags() & Qt::ItemIsUserCheckable))
            continue;
        const bool on = labels.isEmpty() || labels.contains(it->data(LabelRole).toString());
        it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    emit checksChanged();
}

QStringList BenchmarkTargetPicker::targetLabels() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i) {
        const QListWidgetItem *it = m_list->item(i);
        if (it->flags() & Qt::ItemIsUserCheckable)
            out << it->data(LabelRole).toString();
    }
    return out;
}

QList<bench::Target> BenchmarkTargetPicker::checkedTargets() const
{
    QList<bench::Target> out;
    for (int i = 0; i < m_list->count(); ++i) {
        const QListWidgetItem *it = m_list->item(i);
        if ((it->flags() & Qt::ItemIsUserCheckable) && it->checkState() == Qt::Checked)
            out << targetOf(it);
    }
    return out;
}

bool BenchmarkTargetPicker::anyChecked() const
{
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() == Qt::Checked)
            return true;
    }
    return false;
}

void BenchmarkTargetPicker::setEditable(bool editable)
{
    m_list->setEnabled(editable);
    m_customUrl->setEnabled(editable);
}

} // namespace switchyard::ui
