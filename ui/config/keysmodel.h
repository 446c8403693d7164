#pragma once

// The form's keys table: the keys of the provider selected above (name, value, models, weight, enabled),
// with the problems found under each. A key's secret is never shown: a literal value is "••••", an
// "env.NAME" reference is shown as written and never resolved. A change is sent out as JsonEdits.

#include "formdata.h"
#include "formtablemodel.h"

namespace switchyard::ui {

class KeysModel final : public FormTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeysModel)

public:
    enum Column { Name, Value, Models, Weight, Enabled, ColumnCount };
    explicit KeysModel(QObject *parent = nullptr);

    // The keys of one provider (none: empty name).
    void setProvider(const FormProvider *provider, const config::ConfigProblems &problems);
    QString provider() const { return m_provider; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

protected:
    QStringList columnTitles() const override;

private:
    QVariant displayText(const FormKey &k, int column) const;
    static QVariant editValue(const FormKey &k, int column);
    static FormEditor editorFor(int column);
    QStringList toolTipNotes(const FormKey &k, int column) const;
    // The edit a cell's new text asks for; empty when it changes nothing.
    QList<JsonEdit> editsFor(const FormKey &k, int row, int column, const QVariant &value) const;

    QString m_provider;
    std::vector<FormKey> m_keys;
};

} // namespace switchyard::ui
