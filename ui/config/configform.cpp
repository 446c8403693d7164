#include "configform.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <functional>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

using Kind = JsonTextIndex::Kind;

const QString Providers = u"providers"_s;
const QColor ProblemBackground(0xfd, 0xec, 0xea);

JsonPath path(std::initializer_list<JsonPathSegment> segments)
{
    return JsonPath(segments);
}

JsonPathSegment seg(const QString &name)
{
    return JsonPathSegment{name, -1};
}

JsonPathSegment seg(int index)
{
    return JsonPathSegment{{}, index};
}

QString describeValue(const JsonTextIndex::Node &n)
{
    switch (n.kind) {
    case Kind::String:
        return jsonQuote(n.string);
    case Kind::Number:
        return jsonNumber(n.number);
    case Kind::Bool:
        return n.boolean ? u"true"_s : u"false"_s;
    case Kind::Null:
        return u"null"_s;
    case Kind::Object:
        return u"{…}"_s;
    case Kind::Array:
        return u"[…]"_s;
    }
    return {};
}

FormKey readKey(const JsonTextIndex &index, int node)
{
    FormKey k;
    if (index.node(node).kind != Kind::Object)
        return k;
    k.name = index.stringAt(node, u"name").value_or(QString());
    if (const auto value = index.stringAt(node, u"value")) {
        k.hasValue = true;
        if (value->startsWith(u"env."_s)) {
            k.valueIsRef = true;
            k.valueRef = *value;
        }
    }
    const int models = index.member(node, u"models");
    if (models >= 0 && index.node(models).kind == Kind::Array) {
        k.modelsSet = true;
        for (int m : index.node(models).children) {
            if (index.node(m).kind == Kind::String)
                k.models << index.node(m).string;
        }
    }
    k.weight = index.numberAt(node, u"weight");
    const int w = index.member(node, u"weight");
    if (!k.weight && w >= 0)
        k.weightText = describeValue(index.node(w));
    k.enabled = index.boolAt(node, u"enabled").value_or(true);
    return k;
}

std::optional<int> intAt(const JsonTextIndex &index, int object, QStringView name)
{
    const auto v = index.numberAt(object, name);
    if (!v)
        return std::nullopt;
    return int(std::clamp(*v, -2e9, 2e9));
}

QIcon problemIcon()
{
    return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
}

QStringList modelsOf(const FormProvider &p)
{
    QStringList out;
    for (const FormKey &k : p.keys) {
        const QStringList models = k.modelsSet ? k.models : QStringList{u"*"_s};
        for (const QString &m : models) {
            if (!out.contains(m))
                out << m;
        }
    }
    return out;
}

QString modelsText(const QStringList &models)
{
    if (models.isEmpty())
        return QObject::tr("none");
    QStringList shown;
    for (const QString &m : models)
        shown << (m == u"*"_s ? QObject::tr("every model (*)") : m);
    return shown.join(u", "_s);
}

QStringList parseModels(const QString &text)
{
    QStringList out;
    for (const QString &part : text.split(u',')) {
        const QString m = part.trimmed();
        if (!m.isEmpty() && !out.contains(m))
            out << m;
    }
    if (out.isEmpty())
        out << u"*"_s;
    return out;
}

// Problems under one provider (and one key, when keyIndex >= 0), each with the column it is about.
QList<QPair<int, QString>> problemsFor(const config::ConfigProblems &problems, const QString &provider,
                                       int keyIndex, const std::function<int(const JsonPath &rest)> &columnOf)
{
    QList<QPair<int, QString>> out;
    for (const config::ConfigProblem &p : problems) {
        const auto parsed = parseJsonPath(p.path);
        if (!parsed || parsed->size() < 2 || (*parsed)[0].name != Providers || (*parsed)[1].name != provider)
            continue;
        JsonPath rest = parsed->mid(2);
        if (keyIndex >= 0) {
            if (rest.size() < 2 || rest[0].name != u"keys"_s || rest[1].index != keyIndex)
                continue;
            rest = rest.mid(2);
        }
        out.append({columnOf(rest), p.message});
    }
    return out;
}

QStringList messagesIn(const QList<QPair<int, QString>> &problems, int column, bool all)
{
    QStringList out;
    for (const auto &[c, m] : problems) {
        if (all || c == column)
            out << m;
    }
    return out;
}

} // namespace

QStringList strategyIds()
{
    return {u"weighted_round_robin"_s, u"least_outstanding"_s, u"load_aware"_s};
}

QString strategyLabel(const QString &id)
{
    if (id == u"weighted_round_robin"_s)
        return QObject::tr("weighted round robin");
    if (id == u"least_outstanding"_s)
        return QObject::tr("least outstanding");
    if (id == u"load_aware"_s)
        return QObject::tr("load aware");
    return id;
}

FormData readForm(const JsonTextIndex &index)
{
    FormData f;
    const int root = index.root();
    if (!index.isComplete() || root < 0 || index.node(root).kind != Kind::Object)
        return f;
    f.readable = true;
    const int providers = index.member(root, Providers);
    if (providers >= 0 && index.node(providers).kind == Kind::Object) {
        for (int c : index.node(providers).children) {
            const JsonTextIndex::Node &n = index.node(c);
            if (index.member(providers, n.key) != c)
                continue; // a repeated name: the last one counts (and the problem list says so)
            FormProvider p;
            p.name = n.key;
            if (n.kind == Kind::Object) {
                const int net = index.member(c, u"network_config");
                if (net >= 0 && index.node(net).kind == Kind::Object) {
                    p.baseUrl = index.stringAt(net, u"base_url").value_or(QString());
                    p.timeoutSeconds = intAt(index, net, u"default_request_timeout_in_seconds");
                    p.maxRetries = intAt(index, net, u"max_retries");
                }
                const int keys = index.member(c, u"keys");
                p.keysReadable = keys < 0 || index.node(keys).kind == Kind::Array;
                if (keys >= 0 && index.node(keys).kind == Kind::Array) {
                    for (int k : index.node(keys).children)
                        p.keys.push_back(readKey(index, k));
                }
            }
            f.providers.push_back(std::move(p));
        }
    }
    const int sy = index.member(root, u"switchyard");
    if (sy >= 0 && index.node(sy).kind == Kind::Object) {
        f.listen = index.stringAt(sy, u"listen").value_or(QString());
        const int routing = index.member(sy, u"routing");
        if (routing >= 0 && index.node(routing).kind == Kind::Object) {
            f.defaultStrategy = index.stringAt(routing, u"default_strategy").value_or(QString());
            const int models = index.member(routing, u"models");
            if (models >= 0 && index.node(models).kind == Kind::Object) {
                for (int m : index.node(models).children) {
                    if (index.node(m).kind == Kind::String)
                        f.strategyByModel.insert(index.node(m).key, index.node(m).string);
                }
            }
        }
    }
    return f;
}

// ---------------------------------------------------------------------------------------------------------

ProvidersModel::ProvidersModel(QObject *parent) : QAbstractTableModel(parent) {}

void ProvidersModel::setForm(const FormData &form, const config::ConfigProblems &problems)
{
    auto columnOf = [](const JsonPath &rest) -> int {
        if (rest.isEmpty())
            return Name;
        if (rest[0].name == u"network_config"_s) {
            if (rest.size() > 1 && rest[1].name == u"default_request_timeout_in_seconds"_s)
                return Timeout;
            if (rest.size() > 1 && rest[1].name == u"max_retries"_s)
                return Retries;
            return BaseUrl;
        }
        if (rest[0].name == u"keys"_s && rest.size() > 2) {
            if (rest[2].name == u"weight"_s)
                return Weight;
            if (rest[2].name == u"models"_s)
                return Models;
        }
        return Name;
    };
    std::vector<QList<QPair<int, QString>>> rowProblems;
    for (const FormProvider &p : form.providers)
        rowProblems.push_back(problemsFor(problems, p.name, -1, columnOf));

    bool sameRows = form.providers.size() == m_form.providers.size();
    for (size_t i = 0; sameRows && i < form.providers.size(); ++i)
        sameRows = form.providers[i].name == m_form.providers[i].name;
    if (sameRows) {
        // Same providers: update in place, so a selection or an open editor survives.
        m_form = form;
        m_problems = std::move(rowProblems);
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_form = form;
    m_problems = std::move(rowProblems);
    endResetModel();
}

int ProvidersModel::rowOf(const QString &provider) const
{
    for (size_t i = 0; i < m_form.providers.size(); ++i) {
        if (m_form.providers[i].name == provider)
            return int(i);
    }
    return -1;
}

int ProvidersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_form.providers.size());
}

int ProvidersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ProvidersModel::routingText(const FormProvider &p) const
{
    const QString def = m_form.defaultStrategy.isEmpty() ? u"weighted_round_robin"_s : m_form.defaultStrategy;
    const QStringList models = modelsOf(p);
    if (models.contains(u"*"_s) || models.isEmpty())
        return tr("%1 (default)").arg(strategyLabel(def));
    QStringList ids;
    bool overridden = false;
    for (const QString &m : models) {
        const QString id = m_form.strategyByModel.value(m, def);
        overridden = overridden || m_form.strategyByModel.contains(m);
        if (!ids.contains(id))
            ids << id;
    }
    if (ids.size() > 1)
        return tr("mixed: %1").arg(QStringList(ids).join(u", "_s));
    return overridden ? strategyLabel(ids.front()) : tr("%1 (default)").arg(strategyLabel(ids.front()));
}

QVariant ProvidersModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const FormProvider &p = m_form.providers[size_t(index.row())];
    const auto &problems = m_problems[size_t(index.row())];
    const int col = index.column();
    const bool oneKey = p.keys.size() == 1;

    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case Name:
            return p.name;
        case BaseUrl:
            return p.baseUrl;
        case Weight: {
            if (oneKey)
                return p.keys[0].weight ? jsonNumber(*p.keys[0].weight) : p.keys[0].weightText;
            double sum = 0;
            for (const FormKey &k : p.keys)
                sum += k.enabled && k.weight ? *k.weight : 0;
            return tr("%1 (sum of %2 keys)").arg(jsonNumber(sum)).arg(p.keys.size());
        }
        case Models:
            return modelsText(modelsOf(p));
        case Timeout:
            return p.timeoutSeconds ? QString::number(*p.timeoutSeconds) : tr("30 (default)");
        case Retries:
            return p.maxRetries ? QString::number(*p.maxRetries) : tr("0 (default)");
        case Routing:
            return routingText(p);
        }
        return {};
    case Qt::EditRole:
        switch (col) {
        case Name:
            return p.name;
        case BaseUrl:
            return p.baseUrl;
        case Weight:
            return oneKey && p.keys[0].weight ? *p.keys[0].weight : 1.0;
        case Models:
            return oneKey && p.keys[0].modelsSet ? p.keys[0].models.join(u", "_s) : u"*"_s;
        case Timeout:
            return p.timeoutSeconds.value_or(30);
        case Retries:
            return p.maxRetries.value_or(0);
        case Routing: {
            const QStringList models = modelsOf(p);
            if (models.contains(u"*"_s))
                return m_form.defaultStrategy;
            return models.isEmpty() ? QString() : m_form.strategyByModel.value(models.front());
        }
        }
        return {};
    case FormEditorRole:
        switch (col) {
        case Name:
        case BaseUrl:
            return int(FormEditor::Text);
        case Weight:
            return int(oneKey ? FormEditor::Weight : FormEditor::None);
        case Models:
            return int(oneKey ? FormEditor::Text : FormEditor::None);
        case Timeout:
            return int(FormEditor::Seconds);
        case Retries:
            return int(FormEditor::Retries);
        case Routing:
            return int(FormEditor::Strategy);
        }
        return int(FormEditor::None);
    case Qt::ForegroundRole:
        if ((col == Timeout && !p.timeoutSeconds) || (col == Retries && !p.maxRetries) ||
            (col == Routing && routingText(p).endsWith(tr("(default)"))))
            return QApplication::palette().color(QPalette::PlaceholderText);
        return {};
    case Qt::BackgroundRole:
        if (!messagesIn(problems, col, false).isEmpty())
            return ProblemBackground;
        return {};
    case Qt::DecorationRole:
        if (col == Name && !problems.isEmpty())
            return problemIcon();
        return {};
    case Qt::ToolTipRole: {
        QStringList lines = messagesIn(problems, col, col == Name);
        if (col == Weight && !oneKey)
            lines << tr("The sum of the enabled keys' weights: edit each key below.");
        if (col == Models && !oneKey)
            lines << tr("The models of all keys: edit each key below.");
        if (col == Routing)
            lines << tr(
                "A strategy applies to a model's whole pool: every provider serving the model shares it.");
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(u'\n'));
    }
    default:
        return {};
    }
}

QVariant ProvidersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Name");
    case BaseUrl:
        return tr("Base URL");
    case Weight:
        return tr("Weight");
    case Models:
        return tr("Models");
    case Timeout:
        return tr("Timeout (s)");
    case Retries:
        return tr("Retries");
    case Routing:
        return tr("Routing strategy");
    }
    return {};
}

Qt::ItemFlags ProvidersModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && FormEditor(index.data(FormEditorRole).toInt()) != FormEditor::None)
        f |= Qt::ItemIsEditable;
    return f;
}

bool ProvidersModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.row() >= rowCount())
        return false;
    const FormProvider &p = m_form.providers[size_t(index.row())];
    const JsonPath provider = path({seg(Providers), seg(p.name)});
    auto under = [&provider](std::initializer_list<JsonPathSegment> rest) {
        JsonPath out = provider;
        for (const JsonPathSegment &s : rest)
            out << s;
        return out;
    };
    QList<JsonEdit> edits;
    switch (index.column()) {
    case Name: {
        const QString name = value.toString().trimmed();
        if (name.isEmpty() || name == p.name)
            return false;
        edits << JsonEdit::rename(provider, name);
        break;
    }
    case BaseUrl: {
        const QString url = value.toString().trimmed();
        if (url == p.baseUrl)
            return false;
        edits << JsonEdit::set(under({seg(u"network_config"_s), seg(u"base_url"_s)}), jsonQuote(url));
        break;
    }
    case Weight: {
        if (p.keys.size() != 1)
            return false;
        const double w = value.toDouble();
        if (p.keys[0].weight && *p.keys[0].weight == w)
            return false;
        edits << JsonEdit::set(under({seg(u"keys"_s), seg(0), seg(u"weight"_s)}), jsonNumber(w));
        break;
    }
    case Models: {
        if (p.keys.size() != 1)
            return false;
        const QStringList models = parseModels(value.toString());
        if (p.keys[0].modelsSet && p.keys[0].models == models)
            return false;
        edits << JsonEdit::set(under({seg(u"keys"_s), seg(0), seg(u"models"_s)}), jsonStringArray(models));
        break;
    }
    case Timeout:
    case Retries: {
        const int v = value.toInt();
        const bool timeout = index.column() == Timeout;
        const std::optional<int> current = timeout ? p.timeoutSeconds : p.maxRetries;
        if (current && *current == v)
            return false;
        const QString field = timeout ? u"default_request_timeout_in_seconds"_s : u"max_retries"_s;
        edits << JsonEdit::set(under({seg(u"network_config"_s), seg(field)}), QString::number(v));
        break;
    }
    case Routing: {
        const QString id = value.toString();
        const QStringList models = modelsOf(p);
        if (models.contains(u"*"_s) || models.isEmpty()) {
            const JsonPath def = path({seg(u"switchyard"_s), seg(u"routing"_s), seg(u"default_strategy"_s)});
            if (id == m_form.defaultStrategy)
                return false;
            edits << (id.isEmpty() ? JsonEdit::remove(def) : JsonEdit::set(def, jsonQuote(id)));
        } else {
            // One step for the whole change, however many models the provider serves.
            for (const QString &m : models) {
                if (m_form.strategyByModel.value(m) == id)
                    continue;
                const JsonPath at = path({seg(u"switchyard"_s), seg(u"routing"_s), seg(u"models"_s), seg(m)});
                edits << (id.isEmpty() ? JsonEdit::remove(at) : JsonEdit::set(at, jsonQuote(id)));
            }
        }
        break;
    }
    default:
        return false;
    }
    if (edits.isEmpty())
        return false;
    emit editRequested(edits);
    return true;
}

// ---------------------------------------------------------------------------------------------------------

KeysModel::KeysModel(QObject *parent) : QAbstractTableModel(parent) {}

void KeysModel::setProvider(const FormProvider *provider, const config::ConfigProblems &problems)
{
    const QString name = provider ? provider->name : QString();
    const size_t count = provider ? provider->keys.size() : 0;
    auto columnOf = [](const JsonPath &rest) -> int {
        if (rest.isEmpty())
            return Name;
        if (rest[0].name == u"value"_s)
            return Value;
        if (rest[0].name == u"models"_s)
            return Models;
        if (rest[0].name == u"weight"_s)
            return Weight;
        if (rest[0].name == u"enabled"_s)
            return Enabled;
        return Name;
    };
    std::vector<QList<QPair<int, QString>>> rowProblems;
    for (size_t i = 0; i < count; ++i)
        rowProblems.push_back(problemsFor(problems, name, int(i), columnOf));
    if (name == m_provider && count == m_keys.size()) {
        m_keys = provider ? provider->keys : std::vector<FormKey>();
        m_problems = std::move(rowProblems);
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_provider = name;
    m_keys = provider ? provider->keys : std::vector<FormKey>();
    m_problems = std::move(rowProblems);
    endResetModel();
}

int KeysModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

int KeysModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const FormKey &k = m_keys[size_t(index.row())];
    const auto &problems = m_problems[size_t(index.row())];
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case Name:
            return k.name;
        case Value:
            // Never the secret: a reference as written, a literal as dots.
            if (k.valueIsRef)
                return k.valueRef;
            return k.hasValue ? u"\u2022\u2022\u2022\u2022"_s : tr("(none)");
        case Models:
            return modelsText(k.modelsSet ? k.models : QStringList{u"*"_s});
        case Weight:
            return k.weight ? jsonNumber(*k.weight) : k.weightText;
        }
        return {};
    case Qt::EditRole:
        switch (col) {
        case Name:
            return k.name;
        case Value:
            return k.valueIsRef ? k.valueRef : QString(); // a literal is not handed to the editor
        case Models:
            return k.modelsSet ? k.models.join(u", "_s) : u"*"_s;
        case Weight:
            return k.weight.value_or(1.0);
        }
        return {};
    case Qt::CheckStateRole:
        if (col == Enabled)
            return k.enabled ? Qt::Checked : Qt::Unchecked;
        return {};
    case FormEditorRole:
        switch (col) {
        case Name:
        case Models:
            return int(FormEditor::Text);
        case Value:
            return int(FormEditor::Secret);
        case Weight:
            return int(FormEditor::Weight);
        }
        return int(FormEditor::None);
    case Qt::BackgroundRole:
        if (!messagesIn(problems, col, false).isEmpty())
            return ProblemBackground;
        return {};
    case Qt::DecorationRole:
        if (col == Name && !problems.isEmpty())
            return problemIcon();
        return {};
    case Qt::ToolTipRole: {
        QStringList lines = messagesIn(problems, col, col == Name);
        if (col == Value)
            lines << (k.valueIsRef ? tr("Read from the environment variable %1 when the config is applied.")
                                         .arg(k.valueRef.mid(4))
                                   : tr("A literal secret, hidden here. An env.NAME reference keeps it out "
                                        "of the file."));
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(u'\n'));
    }
    default:
        return {};
    }
}

QVariant KeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Key name");
    case Value:
        return tr("Value");
    case Models:
        return tr("Models");
    case Weight:
        return tr("Weight");
    case Enabled:
        return tr("Enabled");
    }
    return {};
}

Qt::ItemFlags KeysModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (!index.isValid())
        return f;
    if (index.column() == Enabled)
        f |= Qt::ItemIsUserCheckable;
    else
        f |= Qt::ItemIsEditable;
    return f;
}

bool KeysModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.row() >= rowCount())
        return false;
    const FormKey &k = m_keys[size_t(index.row())];
    JsonPath key = path({seg(Providers), seg(m_provider), seg(u"keys"_s), seg(index.row())});
    auto field = [&key](const QString &name) {
        JsonPath p = key;
        p << seg(name);
        return p;
    };
    QList<JsonEdit> edits;
    if (index.column() == Enabled && role == Qt::CheckStateRole) {
        const bool on = Qt::CheckState(value.toInt()) == Qt::Checked;
        if (on == k.enabled)
            return false;
        edits << JsonEdit::set(field(u"enabled"_s), on ? u"true"_s : u"false"_s);
    } else if (role == Qt::EditRole) {
        switch (index.column()) {
        case Name: {
            const QString name = value.toString().trimmed();
            if (name.isEmpty() || name == k.name)
                return false;
            edits << JsonEdit::set(field(u"name"_s), jsonQuote(name));
            break;
        }
        case Value: {
            // Empty keeps what is there (the editor never receives a literal secret to give back).
            const QString v = value.toString();
            if (v.isEmpty() || (k.valueIsRef && v == k.valueRef))
                return false;
            edits << JsonEdit::set(field(u"value"_s), jsonQuote(v));
            break;
        }
        case Models: {
            const QStringList models = parseModels(value.toString());
            if (k.modelsSet && k.models == models)
                return false;
            edits << JsonEdit::set(field(u"models"_s), jsonStringArray(models));
            break;
        }
        case Weight: {
            const double w = value.toDouble();
            if (k.weight && *k.weight == w)
                return false;
            edits << JsonEdit::set(field(u"weight"_s), jsonNumber(w));
            break;
        }
        default:
            return false;
        }
    }
    if (edits.isEmpty())
        return false;
    emit editRequested(edits);
    return true;
}

// ---------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------

ConfigForm::ConfigForm(QWidget *parent)
    : QWidget(parent), m_stack(new QStackedWidget(this)), m_unreadable(new QLabel(this)),
      m_providersModel(new ProvidersModel(this)), m_keysModel(new KeysModel(this)),
      m_providersView(new QTableView(this)), m_keysView(new QTableView(this)), m_keysTitle(new QLabel(this)),
      m_addProvider(new QPushButton(tr("Add provider"), this)),
      m_removeProvider(new QPushButton(tr("Remove provider"), this)),
      m_addKey(new QPushButton(tr("Add key"), this)), m_removeKey(new QPushButton(tr("Remove key"), this)),
      m_listen(new QLineEdit(this)), m_strategy(new QComboBox(this))
{
    setObjectName(u"configForm"_s);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);

    auto *page = new QWidget(m_stack);
    auto *l = new QVBoxLayout(page);
    l->setContentsMargins(6, 6, 6, 6);
    auto *title = new QLabel(
        u"<b>"_s + tr("Providers").toHtmlEscaped() + u"</b> \u2014 "_s +
            tr("double-click a cell to change it; each change is one step of Undo (Ctrl+Z).").toHtmlEscaped(),
        page);
    l->addWidget(title);

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
    }
    m_providersView->setObjectName(u"providersTable"_s);
    m_providersView->setModel(m_providersModel);
    // The short columns fit their contents (and headers, which translations make longer); the URL takes
    // the rest. Each column stays resizable by hand.
    QHeaderView *ph = m_providersView->horizontalHeader();
    ph->setStretchLastSection(false);
    for (int c = 0; c < ProvidersModel::ColumnCount; ++c)
        ph->setSectionResizeMode(c, c == ProvidersModel::BaseUrl ? QHeaderView::Stretch : QHeaderView::ResizeToContents);
    m_keysView->setObjectName(u"keysTable"_s);
    m_keysView->setModel(m_keysModel);
    m_keysView->horizontalHeader()->setStretchLastSection(false);
    m_keysView->horizontalHeader()->setSectionResizeMode(KeysModel::Models, QHeaderView::Stretch);
    m_keysView->setColumnWidth(KeysModel::Name, 200);
    m_keysView->setColumnWidth(KeysModel::Value, 200);
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
    gl->addRow(tr("Default routing strategy:"), m_strategy);
    l->addWidget(gw);
    m_stack->addWidget(page);

    m_unreadable->setObjectName(u"formUnreadable"_s);
    m_unreadable->setWordWrap(true);
    m_unreadable->setAlignment(Qt::AlignCenter);
    m_unreadable->setMargin(24);
    m_stack->addWidget(m_unreadable);

    connect(m_providersModel, &ProvidersModel::editRequested, this, [this](const QList<JsonEdit> &edits) {
        // A renamed provider stays selected under its new name.
        for (const JsonEdit &e : edits) {
            if (e.op == JsonEdit::Op::Rename && e.path.size() == 2 && e.path[1].name == m_selected)
                m_selected = e.value;
        }
        emit editRequested(edits);
    });
    connect(m_keysModel, &KeysModel::editRequested, this, &ConfigForm::editRequested);
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
        const JsonPath at = path({seg(u"switchyard"_s), seg(u"listen"_s)});
        emit editRequested({text.isEmpty() ? JsonEdit::remove(at) : JsonEdit::set(at, jsonQuote(text))});
    });
    connect(m_strategy, &QComboBox::activated, this, [this] {
        const QString id = m_strategy->currentData().toString();
        if (id == m_providersModel->form().defaultStrategy)
            return;
        const JsonPath at = path({seg(u"switchyard"_s), seg(u"routing"_s), seg(u"default_strategy"_s)});
        emit editRequested({id.isEmpty() ? JsonEdit::remove(at) : JsonEdit::set(at, jsonQuote(id))});
    });
    syncKeys();
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
    emit editRequested({JsonEdit::set(path({seg(Providers), seg(name)}), value)});
}

void ConfigForm::removeSelectedProvider()
{
    const QString name = selectedProvider();
    if (name.isEmpty())
        return;
    emit editRequested({JsonEdit::remove(path({seg(Providers), seg(name)}))});
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
    const JsonPath keys = path({seg(Providers), seg(p.name), seg(u"keys"_s)});
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
    emit editRequested(
        {JsonEdit::remove(path({seg(Providers), seg(m_selected), seg(u"keys"_s), seg(key.row())}))});
}

} // namespace switchyard::ui
