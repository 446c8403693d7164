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
    // For each of changed, what it was and is where that can be said in a few words ("base URL: A → B;
    // retries: 2 → 0"), empty otherwise (keys: never their secrets).
    QStringList changedDetails;
    bool settingsChanged = false;
    bool listenChanged = false;
    // Where clients connected and where they connect now ("127.0.0.1:8080", "https://0.0.0.0:8443"), set
    // when listenChanged: an operator moving clients needs both.
    QString listenBefore;
    QString listenAfter;

    bool isEmpty() const
    {
        return added.isEmpty() && removed.isEmpty() && reweighted.isEmpty() && changed.isEmpty() && !settingsChanged;
    }
    QString summary() const; // one line, e.g. "added vllm-server3; re-weighted vllm-server1: 1 → 3;
                             // listen address: 127.0.0.1:8080 → 0.0.0.0:8080"
};

ConfigChanges diffConfigs(const GatewayConfig &before, const GatewayConfig &after);

} // namespace switchyard::config
