#pragma once

// What changed between two configs, in the words an operator uses: nodes added, removed, re-weighted,
// re-pointed. Shown by the panel after Apply and logged by headless reloads.

#include "config/config.h"

#include <QStringList>

namespace switchyard::config {

struct ConfigChanges
{
    QStringList added;
    QStringList removed;
    QStringList reweighted; // "vllm-server1: 1 → 3"
    QStringList changed;    // other provider changes: base URL, timeouts, models, keys
    bool settingsChanged = false;
    bool listenChanged = false;

    bool isEmpty() const
    {
        return added.isEmpty() && removed.isEmpty() && reweighted.isEmpty() && changed.isEmpty() && !settingsChanged;
    }
    QString summary() const; // one line, e.g. "added vllm-server3; re-weighted vllm-server1: 1 → 3"
};

ConfigChanges diffConfigs(const GatewayConfig &before, const GatewayConfig &after);

} // namespace switchyard::config
