#include "keys/keysview.h"

#include "chartaxis.h"
#include "keys/keydialog.h"
#include "keys/keysmodel.h"
#include "keys/secretdialog.h"
#include "link/gatewaylink.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
enum Page { MessagePage, TablePage };

// Ids differ in their last digits as much as in their first: narrowed, an id keeps both ends.
class MiddleElideDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideMiddle;
    }
};

const QString ListKeys = u"list keys"_s;
const QString CreateKey = u"create key"_s;
const QString ChangeKey = u"change key "_s;
const QString RevokeKey = u"revoke key "_s;
} // namespace

KeysView::KeysView(QWidget *parent)
    : QWidget(parent), m_model(new VirtualKeysModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_poll(new QTimer(this)), m_pages(new QStackedWidget(this)), m_message(new QLabel(this)),
      m_emptyNewKey(new QPushButton(tr("New key\u2026"), this)), m_table(new QTableView(this)),
      m_chart(new QChart()), m_series(new QHorizontalStackedBarSeries()), m_prompt(new QBarSet(tr("Prompt tokens"))),
      m_completion(new QBarSet(tr("Completion tokens"))), m_keysAxis(new QBarCategoryAxis()),
      m_tokensAxis(new QValueAxis()), m_newKey(new QPushButton(tr("&New key\u2026"), this)),
      m_edit(new QPushButton(tr("&Edit limits\u2026"), this)), m_revoke(new QPushButton(tr("Re&voke\u2026"), this)),
      m_status(new QLabel(this))
{
    setObjectName(u"keysView"_s);
    m_poll->setInterval(PollMs);
    connect(m_poll, &QTimer::timeout, this, &KeysView::poll);

    // Buttons.
    m_newKey->setObjectName(u"newKeyButton"_s);
    m_newKey->setToolTip(tr("Make a virtual key with limits of its own; its secret is shown once."));
    m_edit->setObjectName(u"editKeyButton"_s);
    m_edit->setToolTip(tr("Change the selected key's name, models, providers, limits or expiry."));
    m_revoke->setObjectName(u"revokeKeyButton"_s);
    m_revoke->setToolTip(tr("Refuse the selected key from its next request on."));
    connect(m_newKey, &QPushButton::clicked, this, &KeysView::openNewKeyDialog);
    connect(m_emptyNewKey, &QPushButton::clicked, this, &KeysView::openNewKeyDialog);
    connect(m_edit, &QPushButton::clicked, this, &KeysView::openEditDialog);
    connect(m_revoke, &QPushButton::clicked, this, &KeysView::revokeSelected);
    auto *buttons = new QHBoxLayout;
    auto *heading = new QLabel(tr("Virtual keys"), this);
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    buttons->addWidget(heading);
    buttons->addStretch(1);
    buttons->addWidget(m_newKey);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_revoke);

    // What stands instead of the table: what virtual keys are while there are none, or why the link
    // cannot list them.
    auto *messagePage = new QWidget(this);
    auto *ml = new QVBoxLayout(messagePage);
    m_message->setObjectName(u"keysMessage"_s);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::RichText);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMaximumWidth(640);
    m_emptyNewKey->setObjectName(u"emptyNewKeyButton"_s);
    ml->addStretch(1);
    ml->addWidget(m_message, 0, Qt::AlignHCenter);
    ml->addSpacing(8);
    ml->addWidget(m_emptyNewKey, 0, Qt::AlignHCenter);
    ml->addStretch(2);

    // The table, sorted by the proxy: the gateway's order (the order keys were made) until asked.
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(VirtualKeysModel::SortRole);
    m_table->setObjectName(u"keysTable"_s);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setItemDelegateForColumn(VirtualKeysModel::Id, new MiddleElideDelegate(m_table));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);
    connect(m_table, &QTableView::doubleClicked, this, [this] { openEditDialog(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &KeysView::updateActions);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &KeysView::updateActions);
    // Columns fit their content once keys arrive (and when new ones come), then stay where the operator
    // puts them.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] { m_fitPending = true; });

    // Tokens per key: the ones that used the most, prompt and completion stacked.
    m_chart->setAnimationOptions(QChart::NoAnimation); // a repaint every poll must not replay an animation
    m_chart->setTitle(tr("Tokens per key (top %1)").arg(ChartKeys));
    QFont title = m_chart->titleFont();
    title.setBold(true);
    m_chart->setTitleFont(title);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_prompt->setColor(QColor(0x1f, 0x77, 0xb4));
    m_completion->setColor(QColor(0xff, 0x7f, 0x0e));
    m_series->append(m_prompt);
    m_series->append(m_completion);
    m_series->setBarWidth(0.6);
    m_chart->addSeries(m_series);
    m_tokensAxis->setLabelFormat(u"%.0f"_s);
    m_tokensAxis->setRange(0, 10);
    m_tokensAxis->setTickCount(5);
    m_chart->addAxis(m_keysAxis, Qt::AlignLeft);
    m_chart->addAxis(m_tokensAxis, Qt::AlignBottom);
    m_series->attachAxis(m_keysAxis);
    m_series->attachAxis(m_tokensAxis);
    m_chartView = new QChartView(m_chart, this); // the view owns its chart
    m_chartView->setObjectName(u"keysChart"_s);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(200);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chartView);
    splitter->setChildrenCollapsible(false);
    // Half each: the chart names up to ten keys, and the table scrolls.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    m_pages->addWidget(messagePage);
    m_pages->addWidget(splitter);

    m_status->setObjectName(u"keysStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_status);

    updatePage();
    updateActions();
}

KeysView::~KeysView() = default;

void KeysView::setLink(link::GatewayLink *link)
{
    if (link == m_link)
        return;
    if (m_link)
        disconnect(m_link, nullptr, this, nullptr);
    m_link = link;
    // Another gateway: nothing of the last one's keys stays on screen. (A secret dialog still open
    // stays: its key exists, and the secret is not shown again.)
    m_fetching = false;
    m_listed = false;
    m_refusal.clear();
    m_model->clear();
    setStatus(QString(), false);
    if (m_link) {
        connect(m_link, &link::GatewayLink::keysFetched, this, &KeysView::onKeysFetched);
        connect(m_link, &link::GatewayLink::keyCreated, this, &KeysView::onKeyCreated);
        connect(m_link, &link::GatewayLink::keyChanged, this, &KeysView::onKeyChanged);
        connect(m_link, &link::GatewayLink::commandFinished, this, &KeysView::onCommandFinished);
    }
    updatePage();
    updateActions();
    updateChart();
    if (isVisible() && m_link) {
        m_poll->start();
        poll();
    } else if (!m_link) {
        m_poll->stop();
    }
}

void KeysView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_link)
        return;
    m_poll->start();
    poll(); // at once, not PollMs after the tab was opened
}

void KeysView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_poll->stop();
}

SecretDialog *KeysView::secretDialog() const
{
    return m_secretDialog.data();
}

bool KeysView::isPolling() const
{
    return m_poll->isActive();
}

void KeysView::poll()
{
    // One listing at a time: a slow remote gateway is not asked again before it answered.
    if (!m_link || m_fetching)
        return;
    m_fetching = true;
    m_link->fetchKeys();
}

void KeysView::onKeysFetched(const QList<keys::KeyListing> &keys)
{
    m_fetching = false;
    m_listed = true;
    if (!m_refusal.isEmpty()) {
        m_refusal.clear();
        setStatus(QString(), false);
    }
    m_model->setKeys(keys);
    updatePage();
    updateActions();
    updateChart();
}

void KeysView::onKeyCreated(const keys::KeyListing &key, const QString &secret)
{
    m_model->upsert(key);
    updatePage();
    updateChart();
    const int row = m_model->rowOfId(key.key.id);
    if (row >= 0)
        m_table->selectRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
    setStatus(tr("Key %1 (%2) made.").arg(key.key.name, key.key.id), false);
    // Shown once, here only: the dialog holds the secret and deletes itself (and the secret) when closed.
    auto *dialog = new SecretDialog(key.key.name, secret, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_secretDialog = dialog;
    dialog->open();
}

void KeysView::onKeyChanged(const keys::KeyListing &key)
{
    m_model->upsert(key);
    updatePage();
    updateActions();
    updateChart();
}

void KeysView::onCommandFinished(const QString &what, bool ok, const QString &message)
{
    if (what == ListKeys) {
        if (ok)
            return;
        m_fetching = false;
        m_refusal = message.isEmpty() ? tr("The gateway did not list its keys.") : message;
        setStatus(m_refusal, true);
        updatePage();
        updateActions();
        return;
    }
    if (what == CreateKey) {
        if (!ok)
            setStatus(tr("The key was not made: %1").arg(message), true);
        return;
    }
    if (what.startsWith(ChangeKey)) {
        const QString name = keyName(what.mid(ChangeKey.size()));
        if (ok)
            setStatus(tr("Key %1 changed.").arg(name), false);
        else
            setStatus(tr("Key %1 was not changed: %2").arg(name, message), true);
        return;
    }
    if (what.startsWith(RevokeKey)) {
        const QString name = keyName(what.mid(RevokeKey.size()));
        if (ok)
            setStatus(tr("Key %1 revoked: requests with its secret get 401 from now on.").arg(name), false);
        else
            setStatus(tr("Key %1 was not revoked: %2").arg(name, message), true);
    }
}

QString KeysView::keyName(const QString &id) const
{
    const keys::KeyListing *l = m_model->listing(m_model->rowOfId(id));
    return l ? tr("%1 (%2)").arg(l->key.name, id) : id;
}

void KeysView::setStatus(const QString &text, bool failed)
{
    m_status->setText(text);
    m_status->setStyleSheet(failed ? u"color: #c62828;"_s : QString());
    m_status->setProperty("failed", failed);
    m_status->setVisible(!text.isEmpty());
}

bool KeysView::isShowingTable() const
{
    return m_pages->currentIndex() == TablePage;
}

void KeysView::updatePage()
{
    if (m_model->rowCount() > 0) {
        m_pages->setCurrentIndex(TablePage);
        // New rows are measured once the table is on screen at its size.
        if (m_fitPending && m_table->isVisible())
            fitColumns();
        return;
    }
    m_pages->setCurrentIndex(MessagePage);
    if (!m_link) {
        m_message->setText(tr("No gateway."));
        m_emptyNewKey->hide();
    } else if (!m_refusal.isEmpty() && !m_listed) {
        // Said where the table would be, so nobody reads an empty table as "no keys".
        m_message->setText(tr("<b>Keys cannot be shown here.</b><br>%1").arg(m_refusal.toHtmlEscaped()));
        m_emptyNewKey->hide();
    } else if (!m_listed) {
        m_message->setText(tr("Asking the gateway for its keys\u2026"));
        m_emptyNewKey->hide();
    } else {
        m_message->setText(
            tr("<p><b>No virtual keys yet.</b></p>"
               "<p>A virtual key is one person's or one service's key to the gateway's OpenAI endpoints, with "
               "limits of its own: requests and tokens per minute, tokens per day, requests at once, and the "
               "models and providers it may use. The gateway counts what each key uses.</p>"
               "<p>Its secret is shown once, when it is made. While any key is active, the OpenAI endpoints "
               "need a key.</p>"));
        m_emptyNewKey->show();
    }
}

QString KeysView::selectedKeyId() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return {};
    return m_proxy->data(rows.first(), VirtualKeysModel::IdRole).toString();
}

void KeysView::updateActions()
{
    const bool canList = m_link && (m_listed || m_refusal.isEmpty());
    m_newKey->setEnabled(canList);
    m_emptyNewKey->setEnabled(canList);
    const int row = m_model->rowOfId(selectedKeyId());
    // A revoked key cannot be changed (the gateway says 409); an expired one can get a new expiry.
    const bool changeable = m_link && row >= 0 && m_model->status(row) != VirtualKeysModel::KeyStatus::Revoked;
    m_edit->setEnabled(changeable);
    m_revoke->setEnabled(changeable);
}

void KeysView::fitColumns()
{
    m_fitPending = false;
    QHeaderView *header = m_table->horizontalHeader();
    header->setStretchLastSection(false); // measured at its content's width like the others
    m_table->resizeColumnsToContents();
    int excess = -m_table->viewport()->width();
    for (int c = 0; c < header->count(); ++c)
        excess += header->sectionSize(c);
    // Every column in sight at once: the long texts give way first, to no less than a readable width
    // (what they then hide is in their tooltip); the limits last, since they are what the operator reads.
    const std::pair<int, int> giving[] = {{VirtualKeysModel::Id, 80}, {VirtualKeysModel::Models, 80},
                                          {VirtualKeysModel::Providers, 80}, {VirtualKeysModel::Limits, 170}};
    for (const auto &[column, least] : giving) {
        if (excess <= 0)
            break;
        const int floor = std::max(least, header->sectionSizeHint(column));
        const int give = std::min(excess, header->sectionSize(column) - floor);
        if (give > 0) {
            header->resizeSection(column, header->sectionSize(column) - give);
            excess -= give;
        }
    }
    header->setStretchLastSection(true); // and the last one takes what is left
}

void KeysView::suggest(KeyDialog *dialog) const
{
    if (!m_link)
        return;
    const std::optional<link::GatewayStatus> status = m_link->status();
    if (!status)
        return;
    QStringList models, providers;
    for (const link::NodeStatus &n : status->nodes) {
        providers.append(n.name);
        for (const QStringList &list : {n.models, n.servedModels}) {
            for (const QString &m : list) {
                if (m != u"*"_s && !models.contains(m))
                    models.append(m);
            }
        }
    }
    models.sort(Qt::CaseInsensitive);
    dialog->setSuggestions(models, providers);
}

KeyDialog *KeysView::openNewKeyDialog()
{
    if (!m_link)
        return nullptr;
    auto *dialog = new KeyDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    suggest(dialog);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (m_link)
            m_link->createKey(dialog->change());
    });
    dialog->open();
    return dialog;
}

KeyDialog *KeysView::openEditDialog()
{
    const QString id = selectedKeyId();
    const int row = m_model->rowOfId(id);
    if (!m_link || row < 0 || m_model->status(row) == VirtualKeysModel::KeyStatus::Revoked)
        return nullptr;
    auto *dialog = new KeyDialog(*m_model->listing(row), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    suggest(dialog);
    connect(dialog, &QDialog::accepted, this, [this, dialog, id] {
        const keys::KeyChange change = dialog->change();
        const bool nothing = !change.name && !change.models && !change.providers && !change.requestsPerMinute
                             && !change.tokensPerMinute && !change.tokensPerDay && !change.maxConcurrent
                             && !change.expiresMs;
        if (nothing) {
            setStatus(tr("Nothing changed."), false);
            return;
        }
        if (m_link)
            m_link->updateKey(id, change);
    });
    dialog->open();
    return dialog;
}

void KeysView::revokeSelected()
{
    const QString id = selectedKeyId();
    const keys::KeyListing *l = m_model->listing(m_model->rowOfId(id));
    if (!m_link || !l)
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Revoke key"),
                                tr("Revoke the key %1 (%2)?").arg(l->key.name, id), QMessageBox::NoButton, this);
    box->setObjectName(u"revokeQuestion"_s);
    box->setInformativeText(tr("Requests with its secret get 401 from the next one on. A revoked key stays listed "
                               "with its usage, and cannot be used or changed again."));
    QPushButton *revoke = box->addButton(tr("Revoke"), QMessageBox::DestructiveRole);
    revoke->setObjectName(u"revokeButton"_s);
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setEscapeButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, revoke, id](QAbstractButton *b) {
        if (b == revoke && m_link)
            m_link->revokeKey(id);
    });
    box->open();
}

void KeysView::updateChart()
{
    // The keys that used the most tokens, the most on top (a horizontal chart draws its first category
    // at the bottom).
    struct Bar
    {
        QString name, id;
        qint64 prompt, completion;
    };
    QList<Bar> bars;
    for (const keys::KeyListing &l : m_model->keys()) {
        const qint64 total = l.usage.promptTokens + l.usage.completionTokens;
        if (total > 0)
            bars.append({l.key.name, l.key.id, l.usage.promptTokens, l.usage.completionTokens});
    }
    std::stable_sort(bars.begin(), bars.end(), [](const Bar &a, const Bar &b) {
        return a.prompt + a.completion > b.prompt + b.completion;
    });
    if (bars.size() > ChartKeys)
        bars.resize(ChartKeys);
    std::reverse(bars.begin(), bars.end());

    // A category axis keeps one of two equal names: two keys named alike are told apart by their ids.
    QSet<QString> seen, twice;
    for (const Bar &b : bars) {
        if (seen.contains(b.name))
            twice.insert(b.name);
        seen.insert(b.name);
    }
    QList<std::tuple<QString, qint64, qint64>> charted;
    for (const Bar &b : bars) {
        const QString label = twice.contains(b.name) ? QString(b.name + u" (" + b.id + u')') : b.name;
        charted.append({label, b.prompt, b.completion});
    }
    if (charted == m_charted)
        return; // a poll that changed nothing the chart shows repaints nothing
    m_charted = charted;

    QStringList labels;
    QList<qreal> prompt, completion;
    qint64 most = 0;
    for (const auto &[label, p, c] : std::as_const(charted)) {
        labels.append(label);
        prompt.append(qreal(p));
        completion.append(qreal(c));
        most = std::max(most, p + c);
    }
    if (m_prompt->count() == prompt.size() && m_keysAxis->categories() == labels) {
        for (qsizetype i = 0; i < prompt.size(); ++i) {
            m_prompt->replace(int(i), prompt[i]);
            m_completion->replace(int(i), completion[i]);
        }
    } else {
        m_prompt->remove(0, m_prompt->count());
        m_completion->remove(0, m_completion->count());
        m_keysAxis->clear();
        m_keysAxis->append(labels);
        m_prompt->append(prompt);
        m_completion->append(completion);
    }
    m_tokensAxis->setRange(0, niceMaximum(double(most), 10));
    m_chart->setTitle(charted.isEmpty() ? tr("Tokens per key: none used yet")
                                        : tr("Tokens per key (top %1)").arg(ChartKeys));
}

} // namespace switchyard::ui
