#pragma once

// The config form's box for what outlasts a request: switchyard.history (the SQLite file that keeps every
// request and the virtual keys, how long and how large) and switchyard.redis_url (the Redis through which
// replicas share the keys and their limits). An emptied history file turns the history off, its other
// settings with it. A Redis URL with a password shows as the JSON view shows it, masked.

#include "settingsfieldsbox.h"

namespace switchyard::ui {

class StorageSettingsBox final : public SettingsFieldsBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StorageSettingsBox)

public:
    explicit StorageSettingsBox(QWidget *parent = nullptr);

    void setForm(const FormData &form) { setValues(form.storageSettings); }

private:
    // Keys: "history.path", "history.max_age_days", "history.max_size_mb", "redis_url".
    JsonPath pathOf(const QString &key) const override;
    JsonPath removedWhenEmptied(const QString &key) const override;
};

} // namespace switchyard::ui
