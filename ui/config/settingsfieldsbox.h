#pragma once

// A box of the config form whose line edits each stand for one member of the `switchyard` object (the
// routing box, the history and Redis box). It holds nothing of its own: setValues() shows what the text
// says (a field being typed in is left alone), and a field whose text changed goes out as a JsonEdit —
// a number as a number, anything else as a string the loader then names by its path, an emptied field
// as the removal of its member, so the default applies.

#include "formdata.h"
#include "jsonedit.h"

#include <QGroupBox>
#include <QMap>

class QFormLayout;
class QLineEdit;

namespace switchyard::ui {

class SettingsFieldsBox : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsFieldsBox)

public:
    // The field of a setting, by the key its box gives it, for tests.
    QLineEdit *field(const QString &key) const { return m_fields.value(key); }

signals:
    void editRequested(const QList<switchyard::ui::JsonEdit> &edits);

protected:
    SettingsFieldsBox(const QString &title, QWidget *parent);

    QFormLayout *formLayout() const;
    void addField(const QString &key, const QString &label, const QString &placeholder, const QString &toolTip,
                  bool number);
    // The fields' values as the text has them now, by key (absent: empty).
    void setValues(const QMap<QString, QString> &values);

    // Where a field's member is in the config.
    virtual JsonPath pathOf(const QString &key) const = 0;
    // What an emptied field removes: its member, unless a box knows better.
    virtual JsonPath removedWhenEmptied(const QString &key) const { return pathOf(key); }

private:
    void fieldEdited(const QString &key, bool number);

    QMap<QString, QLineEdit *> m_fields;
    QMap<QString, QString> m_values;
};

} // namespace switchyard::ui
