#include "settingsfieldsbox.h"

#include <QFormLayout>
#include <QLineEdit>

namespace switchyard::ui {

SettingsFieldsBox::SettingsFieldsBox(const QString &title, QWidget *parent) : QGroupBox(title, parent)
{
    new QFormLayout(this);
}

QFormLayout *SettingsFieldsBox::formLayout() const
{
    return static_cast<QFormLayout *>(layout());
}

void SettingsFieldsBox::addField(const QString &key, const QString &label, const QString &placeholder,
                                 const QString &toolTip, bool number)
{
    auto *edit = new QLineEdit(this);
    edit->setObjectName(key);
    edit->setPlaceholderText(placeholder);
    edit->setToolTip(toolTip);
    formLayout()->addRow(label, edit);
    m_fields.insert(key, edit);
    connect(edit, &QLineEdit::editingFinished, this, [this, key, number] { fieldEdited(key, number); });
}

void SettingsFieldsBox::setValues(const QMap<QString, QString> &values)
{
    m_values = values;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const QString text = values.value(it.key());
        if (!it.value()->hasFocus() && it.value()->text() != text)
            it.value()->setText(text);
    }
}

void SettingsFieldsBox::fieldEdited(const QString &key, bool number)
{
    const QString text = m_fields.value(key)->text().trimmed();
    if (text == m_values.value(key))
        return;
    if (text.isEmpty()) {
        emit editRequested({JsonEdit::remove(removedWhenEmptied(key))});
        return;
    }
    // A number goes in as a number; anything else as a string, which the loader then names by its path
    // ("switchyard.routing.cache_threshold must be a number") rather than the form refusing it silently.
    bool isNumber = false;
    const double value = text.toDouble(&isNumber);
    emit editRequested({JsonEdit::set(pathOf(key), number && isNumber ? QString::number(value, 'g', 12) : jsonQuote(text))});
}

} // namespace switchyard::ui
