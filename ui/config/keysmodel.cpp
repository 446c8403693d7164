#include "keysmodel.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// The column a problem below providers.<name>.keys[i] is about.
int columnOf(const JsonPath &rest)
{
    if (rest.isEmpty())
        return KeysModel::Name;
    if (rest[0].name == u"value"_s)
        return KeysModel::Value;
    if (rest[0].name == u"models"_s)
        return KeysModel::Models;
    if (rest[0].name == u"weight"_s)
        return KeysModel::Weight;
    if (rest[0].name == u"enabled"_s)
        return KeysModel::Enabled;
    return KeysModel::Name;
}

} // namespace

KeysModel::KeysModel(QObject *parent) : FormTableModel(ColumnCount, Name, parent) {}

void KeysModel::setProvider(const FormProvider *provider, const config::ConfigProblems &problems)
{
    const QString name = provider ? provider->name : QString();
    const size_t count = provider ? provider->keys.size() : 0;
    std::vector<RowProblems> rowProblems;
    for (size_t i = 0; i < count; ++i)
        rowProblems.push_back(problemsFor(problems, name, int(i), columnOf));
    setRows(name == m_provider && count == m_keys.size(), std::move(rowProblems), [&] {
        m_provider = name;
        m_keys = provider ? provider->keys : std::vector<FormKey>();
    });
}

int KeysModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

QStringList KeysModel::columnTitles() const
{
    return {tr("Key name"), tr("Value"), tr("Models"), tr("Weight"), tr("Enabled")};
}

QVariant KeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const FormKey &k = m_keys[size_t(index.row())];
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayText(k, col);
    case Qt::EditRole:
        return editValue(k, col);
    case Qt::CheckStateRole:
        if (col == Enabled)
            return k.enabled ? Qt::Checked : Qt::Unchecked;
        return {};
    case FormEditorRole:
        return int(editorFor(col));
    case Qt::ToolTipRole:
        return toolTip(index, toolTipNotes(k, col));
    default:
        return problemData(index, role);
    }
}

QVariant KeysModel::displayText(const FormKey &k, int column) const
{
    switch (column) {
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
}

QVariant KeysModel::editValue(const FormKey &k, int column)
{
    switch (column) {
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
}

FormEditor KeysModel::editorFor(int column)
{
    switch (column) {
    case Name:
    case Models:
        return FormEditor::Text;
    case Value:
        return FormEditor::Secret;
    case Weight:
        return FormEditor::Weight;
    }
    return FormEditor::None;
}

QStringList KeysModel::toolTipNotes(const FormKey &k, int column) const
{
    if (column != Value)
        return {};
    if (k.valueIsRef)
        return {
            tr("Read from the environment variable %1 when the config is applied.").arg(k.valueRef.mid(4))};
    return {tr("A literal secret, hidden here. An env.NAME reference keeps it out of the file.")};
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
    if (index.column() == Enabled && role == Qt::CheckStateRole) {
        const bool on = Qt::CheckState(value.toInt()) == Qt::Checked;
        if (on == k.enabled)
            return false;
        return requestEdits(
            {JsonEdit::set(keyPath(m_provider, index.row(), {u"enabled"_s}), on ? u"true"_s : u"false"_s)});
    }
    if (role != Qt::EditRole)
        return false;
    return requestEdits(editsFor(k, index.row(), index.column(), value));
}

QList<JsonEdit> KeysModel::editsFor(const FormKey &k, int row, int column, const QVariant &value) const
{
    switch (column) {
    case Name: {
        const QString name = value.toString().trimmed();
        if (name.isEmpty() || name == k.name)
            return {};
        return {JsonEdit::set(keyPath(m_provider, row, {u"name"_s}), jsonQuote(name))};
    }
    case Value: {
        // Empty keeps what is there (the editor never receives a literal secret to give back).
        const QString v = value.toString();
        if (v.isEmpty() || (k.valueIsRef && v == k.valueRef))
            return {};
        return {JsonEdit::set(keyPath(m_provider, row, {u"value"_s}), jsonQuote(v))};
    }
    case Models: {
        const QStringList models = parseModels(value.toString());
        if (k.modelsSet && k.models == models)
            return {};
        return {JsonEdit::set(keyPath(m_provider, row, {u"models"_s}), jsonStringArray(models))};
    }
    case Weight: {
        const double w = value.toDouble();
        if (k.weight && *k.weight == w)
            return {};
        return {JsonEdit::set(keyPath(m_provider, row, {u"weight"_s}), jsonNumber(w))};
    }
    }
    return {};
}

} // namespace switchyard::ui
