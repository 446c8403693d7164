#include "configform.h"

#include "formdelegate.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// The form's page inside its scroll area. A word-wrapped note makes a layout height-for-width, and then
// QScrollArea sizes its widget to the preferred height and scrolls; this page says no, so inside its
// holder it fills the window, the tables take what is left, and it scrolls only below its minimum.
class FormPage final : public QWidget
{
public:
    using QWidget::QWidget;
    bool hasHeightForWidth() const override { return false; }
};

} // namespace

ConfigForm::ConfigForm(QWidget *parent)
    : QWidget(parent), m_stack(new QStackedWidget(this)), m_unreadable(new QLabel(this)),
      m_providersModel(new ProvidersModel(this)), m_keysModel(new KeysModel(this)),
      m_providersView(new QTableView(this)), m_keysView(new QTableView(this)), m_keysTitle(new QLabel(this)),
      m_addProvider(new QPushButton(tr("Add provider"), this)),
      m_removeProvider(new QPushButton(tr("Remove provider"), this)),
      m_addKey(new QPushButton(tr("Add key"), this)), m_removeKey(new QPushButton(tr("Remove key"), this)),
      m_listen(new QLineEdit(this)), m_listenNote(new QLabel(this)), m_strategy(new QComboBox(this)),
      m_routing(new RoutingSettingsBox(this)), m_storage(new StorageSettingsBox(this))
{
    setObjectName(u"configForm"_s);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);
    // Scrollable, so the form's minimum height (tables, gateway and routing boxes) never becomes the window's.
    auto *scroll = new QScrollArea(m_stack);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    auto *holder = new QWidget(scroll);
    auto *holderLayout = new QVBoxLayout(holder);
    holderLayout->setContentsMargins(0, 0, 0, 0);
    holderLayout->addWidget(buildPage());
    scroll->setWidget(holder);
    m_stack->addWidget(scroll);

    m_unreadable->setObjectName(u"formUnreadable"_s);
    m_unreadable->setWordWrap(true);
    m_unreadable->setTextFormat(Qt::PlainText); // it quotes the text, which may hold anything
    m_unreadable->setAlignment(Qt::AlignCenter);
    m_unreadable->setMargin(24);
    m_stack->addWidget(m_unreadable);

    connectSignals();
    syncKeys();
}

// The form itself: the providers table and its buttons, the keys table and its buttons, the gateway box.
QWidget *ConfigForm::buildPage()
{
    auto *page = new FormPage(m_stack);
    auto *l = new QVBoxLayout(page);
    l->setContentsMargins(6, 6, 6, 6);
    auto *title = new QLabel(
        u"<b>"_s + tr("Providers").toHtmlEscaped() + u"</b> \u2014 "_s +
            tr("double-click a cell to change it; each change is one step of Undo (Ctrl+Z).").toHtmlEscaped(),
        page);
    l->addWidget(title);
    setUpTables();
    l->addWidget(m_providersView, 3);

    auto *pb = new QHBoxLayout;
    m_addProvider->setObjectName(u"addProvider"_s);
    m_removeProvider->setObjectName(u"removeProvider"_s);
    m_addProvider->setToolTip(tr("Adds a provider with the models of the one above; fill in its base URL."));
    pb->addWidget(m_addProvider);
    pb->addWidget(m_removeProvider);
    pb->addStretch(1);
    l->addLayout(pb);

    l->addWidget(m_keysTitle);
    l->addWidget(m_keysView, 2);
    auto *kb = new QHBoxLayout;
    m_addKey->setObjectName(u"addKey"_s);
    m_removeKey->setObjectName(u"removeKey"_s);
    kb->addWidget(m_addKey);
    kb->addWidget(m_removeKey);
    kb->addStretch(1);
    l->addLayout(kb);

    // Side by side: the listener and default strategy beside the routing for the KV cache.
    auto *boxes = new QHBoxLayout;
    boxes->addWidget(buildGatewayBox(page), 1);
    boxes->addWidget(m_routing, 1);
    l->addLayout(boxes);
    auto *lower = new QHBoxLayout;
    lower->addWidget(m_storage, 1);
    lower->addStretch(1);
    l->addLayout(lower);
    return page;
}

void ConfigForm::setUpTables()
{
    for (QTableView *v : {m_providersView, m_keysView}) {
        v->setItemDelegate(
            new FormDelegate(v)); // one each: a delegate's commitData goes to every view using it
        v->setSelectionBehavior(QAbstractItemView::SelectRows);
        v->setSelectionMode(QAbstractItemView::SingleSelection);
        v->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::AnyKeyPressed);
        v->verticalHeader()->hide();
        v->setAlternatingRowColors(true);
        v->horizontalHeader()->setStretchLastSection(true);
        v->setWordWrap(false);
        // Room for a header and about three rows; the tables grow with the window, the boxes below stay seen.
        v->setMinimumHeight(v->horizontalHeader()->sizeHint().height() + 3 * v->verticalHeader()->defaultSectionSize() + 4);
    }
    m_providersView->setObjectName(u"providersTable"_s);
    m_providersView->setModel(m_providersModel);
    // The short columns fit their contents (and headers, which translations make longer); the URL takes
    // the rest. Each column stays resizable by hand.
    QHeaderView *ph = m_providersView->horizontalHeader();
    ph->setStretchLastSection(false);
    for (int c = 0; c < ProvidersModel::ColumnCount; ++c)
        ph->setSectionResizeMode(c, c == ProvidersModel::BaseUrl ? QHeaderView::Stretch
                                                                 : QHeaderView::ResizeToContents);
    m_keysView->setObjectName(u"keysTable"_s);
    m_keysView->setModel(m_keysModel);
    m_keysView->horizontalHeader()->setStretchLastSection(false);
    m_keysView->horizontalHeader()->setSectionResizeMode(KeysModel::Models, QHeaderView::Stretch);
    m_keysView->setColumnWidth(KeysModel::Name, 200);
    m_keysView->setColumnWidth(KeysModel::Value, 200);
}

QGroupBox *ConfigForm::buildGatewayBox(QWidget *page)
{
    auto *gw = new QGroupBox(tr("Gateway"), page);
    auto *gl = new QFormLayout(gw);
    m_listen->setObjectName(u"listenEdit"_s);
    m_listen->setPlaceholderText(tr("127.0.0.1:8080 (default)"));
    m_listen->setToolTip(tr("Where clients connect: HOST:PORT, [IPv6]:PORT, :PORT or PORT. A running gateway "
                            "rebinds on Apply and keeps its old address if the new one cannot be used."));
    m_strategy->setObjectName(u"defaultStrategy"_s);
    m_strategy->addItem(tr("weighted round robin (default)"), QString());
    for (const QString &id : strategyIds())
        m_strategy->addItem(strategyLabel(id), id);
    gl->addRow(tr("Listen address:"), m_listen);
    m_listenNote->setObjectName(u"listenNote"_s);
    m_listenNote->setWordWrap(true);
    m_listenNote->setTextFormat(Qt::PlainText);
    m_listenNote->setForegroundRole(QPalette::PlaceholderText);
    m_listenNote->hide();
    gl->addRow(QString(), m_listenNote);
    gl->addRow(tr("Default routing strategy:"), m_strategy);
    return gw;
}

void ConfigForm::connectSignals()
{
    connect(m_providersModel, &ProvidersModel::editRequested, this, [this](const QList<JsonEdit> &edits) {
        // A renamed provider stays selected under its new name.
        for (const JsonEdit &e : edits) {
            if (e.op == JsonEdit::Op::Rename && e.path.size() == 2 && e.path[1].name == m_selected)
                m_selected = e.value;
        }
        emit editRequested(edits);
    });
    connect(m_keysModel, &KeysModel::editRequested, this, &ConfigForm::editRequested);
    connect(m_routing, &RoutingSettingsBox::editRequested, this, &ConfigForm::editRequested);
    connect(m_storage, &StorageSettingsBox::editRequested, this, &ConfigForm::editRequested);
    connect(m_providersView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    m_selected = m_providersModel->form().providers[size_t(current.row())].name;
                syncKeys();
            });
    connect(m_keysView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ConfigForm::syncButtons);
    connect(m_addProvider, &QPushButton::clicked, this, &ConfigForm::addProvider);
    connect(m_removeProvider, &QPushButton::clicked, this, &ConfigForm::removeSelectedProvider);
    connect(m_addKey, &QPushButton::clicked, this, &ConfigForm::addKey);
    connect(m_removeKey, &QPushButton::clicked, this, &ConfigForm::removeSelectedKey);
    connect(m_listen, &QLineEdit::editingFinished, this, [this] {
        const QString text = m_listen->text().trimmed();
        if (text == m_providersModel->form().listen)
            return;
        const JsonPath at = settingsPath({u"listen"_s});
        emit editRequested({text.isEmpty() ? JsonEdit::remove(at) : JsonEdit::set(at, jsonQuote(text))});
    });
    connect(m_strategy, &QComboBox::activated, this, [this] {
        const QString id = m_strategy->currentData().toString();
        if (id == m_providersModel->form().defaultStrategy)
            return;
        const JsonPath at = settingsPath({u"routing"_s, u"default_strategy"_s});
        emit editRequested({id.isEmpty() ? JsonEdit::remove(at) : JsonEdit::set(at, jsonQuote(id))});
    });
}

void ConfigForm::setForm(const FormData &form, const config::ConfigProblems &problems,
                         const QString &unreadable)
{
    m_problems = problems;
    if (!form.readable) {
        m_unreadable->setText(unreadable);
        m_stack->setCurrentWidget(m_unreadable);
        return;
    }
    m_stack->setCurrentIndex(0);
    const QString keep = m_selected;
    m_providersModel->setForm(form, problems);
    if (!m_listen->hasFocus() && m_listen->text() != form.listen)
        m_listen->setText(form.listen);
    m_routing->setForm(form);
    m_storage->setForm(form);
    const int s = m_strategy->findData(form.defaultStrategy);
    m_strategy->setCurrentIndex(s >= 0 ? s : 0);
    if (m_strategy->currentIndex() == 0 && !form.defaultStrategy.isEmpty()) {
        // An unknown name in the file: shown as written (the problem list says what is wrong).
        m_strategy->setItemText(0, form.defaultStrategy);
    } else {
        m_strategy->setItemText(0, tr("weighted round robin (default)"));
    }
    selectProvider(m_providersModel->rowOf(keep) >= 0 ? keep
                   : form.providers.empty()           ? QString()
                                                      : form.providers.front().name);
    syncKeys();
}

void ConfigForm::setListenOverride(const QString &listen, const QString &inUse)
{
    if (listen.isEmpty()) {
        m_listen->setPlaceholderText(tr("127.0.0.1:8080 (default)"));
        m_listenNote->hide();
        return;
    }
    m_listen->setPlaceholderText(tr("%1 (from --listen)").arg(listen));
    m_listenNote->setText(inUse.isEmpty() || inUse.endsWith(listen)
                              ? tr("The panel was started with --listen %1, which overrides this field.").arg(listen)
                              : tr("The panel was started with --listen %1, which overrides this field; the "
                                   "gateway listens on %2.")
                                    .arg(listen, inUse));
    m_listenNote->show();
}

QString ConfigForm::listenNote() const
{
    return m_listenNote->isHidden() ? QString() : m_listenNote->text();
}

bool ConfigForm::isReadable() const
{
    return m_stack->currentIndex() == 0;
}

QString ConfigForm::unreadableText() const
{
    return isReadable() ? QString() : m_unreadable->text();
}

QString ConfigForm::selectedProvider() const
{
    return m_providersModel->rowOf(m_selected) >= 0 ? m_selected : QString();
}

void ConfigForm::selectProvider(const QString &name)
{
    m_selected = name;
    const int row = m_providersModel->rowOf(name);
    if (row < 0)
        return;
    const QModelIndex current = m_providersView->currentIndex();
    if (current.row() != row)
        m_providersView->setCurrentIndex(
            m_providersModel->index(row, current.isValid() ? current.column() : 0));
}

void ConfigForm::syncKeys()
{
    const int row = m_providersModel->rowOf(m_selected);
    const FormProvider *p = row >= 0 ? &m_providersModel->form().providers[size_t(row)] : nullptr;
    m_keysModel->setProvider(p, m_problems);
    m_keysTitle->setText(p ? QString(u"<b>"_s + tr("Keys of %1").arg(p->name).toHtmlEscaped() +
                                     u"</b> \u2014 "_s +
                                     tr("values are hidden; env.NAME references are shown as written, never "
                                        "resolved.")
                                         .toHtmlEscaped())
                           : QString(u"<b>"_s + tr("Keys").toHtmlEscaped() + u"</b>"_s));
    syncButtons();
}

void ConfigForm::syncButtons()
{
    const int row = m_providersModel->rowOf(m_selected);
    m_removeProvider->setEnabled(row >= 0);
    m_addKey->setEnabled(row >= 0 && m_providersModel->form().providers[size_t(row)].keysReadable);
    m_removeKey->setEnabled(row >= 0 && m_keysView->currentIndex().isValid());
}

QString ConfigForm::uniqueProviderName() const
{
    const auto &providers = m_providersModel->form().providers;
    auto taken = [this](const QString &n) { return m_providersModel->rowOf(n) >= 0; };
    // Continue the operator's numbering: vllm-server2 -> vllm-server3.
    QString stem = u"provider"_s;
    int number = 1;
    if (!providers.empty()) {
        const QString last = providers.back().name;
        qsizetype digits = last.size();
        while (digits > 0 && last[digits - 1].isDigit())
            --digits;
        stem = last.left(digits);
        number = digits < last.size() ? last.mid(digits).toInt() + 1 : 2;
        if (digits == last.size())
            stem += u'-';
    }
    while (taken(stem + QString::number(number)))
        ++number;
    return stem + QString::number(number);
}

void ConfigForm::addProvider()
{
    const auto &providers = m_providersModel->form().providers;
    const FormProvider *like = providers.empty() ? nullptr : &providers.back();
    QStringList models{u"*"_s};
    int timeout = 30;
    int retries = 0;
    if (like) {
        if (!like->keys.empty() && like->keys.front().modelsSet)
            models = like->keys.front().models;
        timeout = like->timeoutSeconds.value_or(30);
        retries = like->maxRetries.value_or(0);
    }
    const QString name = uniqueProviderName();
    // The base URL is left empty on purpose: the problem list asks for it, and Apply waits for it.
    const QString value = u"{\n"_s + u"  \"keys\": [{\"name\": "_s + jsonQuote(QString(name + u"-key"_s)) +
                          u", \"value\": \"\", \"models\": "_s + jsonStringArray(models) +
                          u", \"weight\": 1}],\n"_s + u"  \"network_config\": {\n"_s +
                          u"    \"base_url\": \"\",\n"_s + u"    \"default_request_timeout_in_seconds\": "_s +
                          QString::number(timeout) + u",\n"_s + u"    \"max_retries\": "_s +
                          QString::number(retries) + u"\n"_s + u"  },\n"_s +
                          u"  \"custom_provider_config\": {\"base_provider_type\": \"openai\"}\n"_s + u"}"_s;
    m_selected = name;
    emit editRequested({JsonEdit::set(providerPath(name), value)});
}

void ConfigForm::removeSelectedProvider()
{
    const QString name = selectedProvider();
    if (name.isEmpty())
        return;
    emit editRequested({JsonEdit::remove(providerPath(name))});
}

void ConfigForm::addKey()
{
    const int row = m_providersModel->rowOf(m_selected);
    if (row < 0)
        return;
    const FormProvider &p = m_providersModel->form().providers[size_t(row)];
    QStringList models{u"*"_s};
    if (!p.keys.empty() && p.keys.back().modelsSet)
        models = p.keys.back().models;
    QStringList names;
    for (const FormKey &k : p.keys)
        names << k.name;
    int n = int(p.keys.size()) + 1;
    while (names.contains(p.name + u"-key-"_s + QString::number(n)))
        ++n;
    const QString key = u"{\"name\": "_s + jsonQuote(QString(p.name + u"-key-"_s + QString::number(n))) +
                        u", \"value\": \"\", \"models\": "_s + jsonStringArray(models) +
                        u", \"weight\": 1}"_s;
    const JsonPath keys = providerPath(p.name, {u"keys"_s});
    if (p.keys.empty() && !p.keysReadable)
        return;
    // No "keys" yet: create the array with the key; otherwise append.
    emit editRequested(
        {p.keys.empty() ? JsonEdit::set(keys, u"["_s + key + u"]"_s) : JsonEdit::append(keys, key)});
}

void ConfigForm::removeSelectedKey()
{
    const int row = m_providersModel->rowOf(m_selected);
    const QModelIndex key = m_keysView->currentIndex();
    if (row < 0 || !key.isValid())
        return;
    emit editRequested({JsonEdit::remove(keyPath(m_selected, key.row()))});
}

} // namespace switchyard::ui
