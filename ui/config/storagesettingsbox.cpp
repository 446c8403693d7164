#include "storagesettingsbox.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

StorageSettingsBox::StorageSettingsBox(QWidget *parent)
    : SettingsFieldsBox(tr("Request history and shared keys"), parent)
{
    setObjectName(u"storageSettings"_s);
    addField(u"history.path"_s, tr("History file:"), tr("off: the last 1000 requests, in memory"),
             tr("An absolute path, like /var/lib/switchyard/history.db: every request and the virtual keys are "
                "kept there in SQLite, across restarts. Empty turns the history off."),
             false);
    addField(u"history.max_age_days"_s, tr("Keep for (days):"), tr("30 (default)"),
             tr("Requests older than this are deleted from the history."), true);
    addField(u"history.max_size_mb"_s, tr("At most (MB):"), tr("1024 (default)"),
             tr("The oldest requests are deleted once the file grows beyond this."), true);
    addField(u"redis_url"_s, tr("Shared through Redis:"), tr("off: each gateway on its own"),
             tr("redis://host:6379 (or env.NAME): replicas of this gateway share the virtual keys and enforce "
                "one limit per key between them. A URL with a password is shown masked."),
             false);
}

JsonPath StorageSettingsBox::pathOf(const QString &key) const
{
    return settingsPath(key.split(u'.'));
}

JsonPath StorageSettingsBox::removedWhenEmptied(const QString &key) const
{
    // Without its file the history is off: its other settings go with it rather than stay behind as a
    // problem ("switchyard.history.path is required").
    return key == u"history.path"_s ? settingsPath({u"history"_s}) : pathOf(key);
}

} // namespace switchyard::ui
