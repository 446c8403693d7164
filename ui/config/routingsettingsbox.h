#pragma once

// The config form's routing box: session_affinity's and cache_aware's settings in switchyard.routing —
// the session header, the strategy for requests without a session key, and cache_aware's thresholds.
// Like the rest of the form it holds nothing of its own: it shows what the text says and sends each
// change out as a JsonEdit (an emptied field removes the member, so the default applies).

#include "settingsfieldsbox.h"

class QComboBox;

namespace switchyard::ui {

class RoutingSettingsBox final : public SettingsFieldsBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RoutingSettingsBox)

public:
    explicit RoutingSettingsBox(QWidget *parent = nullptr);

    void setForm(const FormData &form);
    QComboBox *fallbackBox() const { return m_fallback; }

private:
    // Keys: the members of switchyard.routing ("cache_threshold" …).
    JsonPath pathOf(const QString &key) const override;

    QComboBox *m_fallback;
    FormData m_form;
};

} // namespace switchyard::ui
