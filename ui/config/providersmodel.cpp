#include "providersmodel.h"

#include <QApplication>
#include <QPalette>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// The models a provider's keys serve, each once, in key order ("*" for a key without a list).
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

// The column a problem below providers.<name> is about.
int columnOf(const JsonPath &rest)
{
    if (rest.isEmpty())
        return ProvidersModel::Name;
    if (rest[0].name == u"network_config"_s) {
        if (rest.size() > 1 && rest[1].name == u"default_request_timeout_in_seconds"_s)
            return ProvidersModel::Timeout;
        if (rest.size() > 1 && rest[1].name == u"max_retries"_s)
            return ProvidersModel::Retries;
        return ProvidersModel::BaseUrl;
    }
    if (rest[0].name == u"keys"_s && rest.size() > 2) {
        if (rest[2].name == u"weight"_s)
            return ProvidersModel::Weight;
        if (rest[2].name == u"models"_s)
            return ProvidersModel::Models;
    }
    return ProvidersModel::Name;
}

} // namespace

ProvidersModel::ProvidersModel(QObject *parent) : FormTableModel(ColumnCount, Name, parent) {}

void ProvidersModel::setForm(const FormData &form, const config::ConfigProblems &problems)
{
    std::vector<RowProblems> rowProblems;
    for (const FormProvider &p : form.providers)
        rowProblems.push_back(problemsFor(problems, p.name, -1, columnOf));
    bool sameRows = form.providers.size() == m_form.providers.size();
    for (size_t i = 0; sameRows && i < form.providers.size(); ++i)
        sameRows = form.providers[i].name == m_form.providers[i].name;
    setRows(sameRows, std::move(rowProblems), [&] { m_form = form; });
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

QStringList ProvidersModel::columnTitles() const
{
    return {tr("Name"),        tr("Base URL"), tr("Weight"),          tr("Models"),
            tr("Timeout (s)"), tr("Retries"),  tr("Routing strategy")};
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
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayText(p, col);
    case Qt::EditRole:
        return editValue(p, col);
    case FormEditorRole:
        return int(editorFor(p, col));
    case Qt::ForegroundRole:
        if ((col == Timeout && !p.timeoutSeconds) || (col == Retries && !p.maxRetries) ||
            (col == Routing && routingText(p).endsWith(tr("(default)"))))
            return QApplication::palette().color(QPalette::PlaceholderText);
        return {};
    case Qt::ToolTipRole:
        return toolTip(index, toolTipNotes(p, col));
    default:
        return problemData(index, role);
    }
}

QVariant ProvidersModel::displayText(const FormProvider &p, int column) const
{
    const bool oneKey = p.keys.size() == 1;
    switch (column) {
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
}

QVariant ProvidersModel::editValue(const FormProvider &p, int column) const
{
    const bool oneKey = p.keys.size() == 1;
    switch (column) {
    case Name:
    case BaseUrl:
        return displayText(p, column); // edited as shown
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
}

FormEditor ProvidersModel::editorFor(const FormProvider &p, int column)
{
    // Weight and models belong to a key: with several keys they are edited per key, below.
    const bool oneKey = p.keys.size() == 1;
    switch (column) {
    case Name:
    case BaseUrl:
        return FormEditor::Text;
    case Weight:
        return oneKey ? FormEditor::Weight : FormEditor::None;
    case Models:
        return oneKey ? FormEditor::Text : FormEditor::None;
    case Timeout:
        return FormEditor::Seconds;
    case Retries:
        return FormEditor::Retries;
    case Routing:
        return FormEditor::Strategy;
    }
    return FormEditor::None;
}

QStringList ProvidersModel::toolTipNotes(const FormProvider &p, int column) const
{
    const bool oneKey = p.keys.size() == 1;
    if (column == Weight && !oneKey)
        return {tr("The sum of the enabled keys' weights: edit each key below.")};
    if (column == Models && !oneKey)
        return {tr("The models of all keys: edit each key below.")};
    if (column == Routing)
        return {
            tr("A strategy applies to a model's whole pool: every provider serving the model shares it.")};
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
    return requestEdits(editsFor(m_form.providers[size_t(index.row())], index.column(), value));
}

QList<JsonEdit> ProvidersModel::editsFor(const FormProvider &p, int column, const QVariant &value) const
{
    switch (column) {
    case Name: {
        const QString name = value.toString().trimmed();
        if (name.isEmpty() || name == p.name)
            return {};
        return {JsonEdit::rename(providerPath(p.name), name)};
    }
    case BaseUrl: {
        const QString url = value.toString().trimmed();
        if (url == p.baseUrl)
            return {};
        return {JsonEdit::set(providerPath(p.name, {u"network_config"_s, u"base_url"_s}), jsonQuote(url))};
    }
    case Weight: {
        if (p.keys.size() != 1)
            return {};
        const double w = value.toDouble();
        if (p.keys[0].weight && *p.keys[0].weight == w)
            return {};
        return {JsonEdit::set(keyPath(p.name, 0, {u"weight"_s}), jsonNumber(w))};
    }
    case Models: {
        if (p.keys.size() != 1)
            return {};
        const QStringList models = parseModels(value.toString());
        if (p.keys[0].modelsSet && p.keys[0].models == models)
            return {};
        return {JsonEdit::set(keyPath(p.name, 0, {u"models"_s}), jsonStringArray(models))};
    }
    case Timeout:
    case Retries: {
        const int v = value.toInt();
        const bool timeout = column == Timeout;
        const std::optional<int> current = timeout ? p.timeoutSeconds : p.maxRetries;
        if (current && *current == v)
            return {};
        const QString field = timeout ? u"default_request_timeout_in_seconds"_s : u"max_retries"_s;
        return {JsonEdit::set(providerPath(p.name, {u"network_config"_s, field}), QString::number(v))};
    }
    case Routing:
        return routingEdits(p, value.toString());
    }
    return {};
}

QList<JsonEdit> ProvidersModel::routingEdits(const FormProvider &p, const QString &strategy) const
{
    const QStringList models = modelsOf(p);
    if (models.contains(u"*"_s) || models.isEmpty()) {
        // A provider of every model follows the default strategy: that is what changes.
        const JsonPath def = settingsPath({u"routing"_s, u"default_strategy"_s});
        if (strategy == m_form.defaultStrategy)
            return {};
        return {strategy.isEmpty() ? JsonEdit::remove(def) : JsonEdit::set(def, jsonQuote(strategy))};
    }
    // One step for the whole change, however many models the provider serves.
    QList<JsonEdit> edits;
    for (const QString &m : models) {
        if (m_form.strategyByModel.value(m) == strategy)
            continue;
        const JsonPath at = settingsPath({u"routing"_s, u"models"_s, m});
        edits << (strategy.isEmpty() ? JsonEdit::remove(at) : JsonEdit::set(at, jsonQuote(strategy)));
    }
    return edits;
}

} // namespace switchyard::ui
