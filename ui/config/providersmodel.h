#pragma once

// The form's providers table: one row per provider (name, base URL, weight, models, timeout, retries,
// routing strategy), with the problems found under it. A change made in a cell is sent out as JsonEdits.

#include "formdata.h"
#include "formtablemodel.h"

namespace switchyard::ui {

class ProvidersModel final : public FormTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProvidersModel)

public:
    enum Column { Name, BaseUrl, Weight, Models, Timeout, Retries, Routing, ColumnCount };
    explicit ProvidersModel(QObject *parent = nullptr);

    void setForm(const FormData &form, const config::ConfigProblems &problems);
    const FormData &form() const { return m_form; }
    int rowOf(const QString &provider) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

    // The strategy shown for a provider: its models' (per-model or default).
    QString routingText(const FormProvider &p) const;

protected:
    QStringList columnTitles() const override;

private:
    QVariant displayText(const FormProvider &p, int column) const;
    QVariant editValue(const FormProvider &p, int column) const;
    static FormEditor editorFor(const FormProvider &p, int column);
    QStringList toolTipNotes(const FormProvider &p, int column) const;
    // The edit a cell's new value asks for; empty when it changes nothing.
    QList<JsonEdit> editsFor(const FormProvider &p, int column, const QVariant &value) const;
    QList<JsonEdit> routingEdits(const FormProvider &p, const QString &strategy) const;

    FormData m_form;
};

} // namespace switchyard::ui
