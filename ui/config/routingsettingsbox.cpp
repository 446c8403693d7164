#include "routingsettingsbox.h"

#include <QComboBox>
#include <QFormLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

RoutingSettingsBox::RoutingSettingsBox(QWidget *parent)
    : SettingsFieldsBox(tr("Session affinity and cache-aware routing"), parent), m_fallback(new QComboBox(this))
{
    setObjectName(u"routingSettings"_s);
    addField(u"session_header"_s, tr("Session header:"), tr("X-Session-Id (default)"),
             tr("session_affinity: the request header that names a session. Without it the body's "
                "prompt_cache_key, else its user field, is the session key."),
             false);
    m_fallback->setObjectName(u"fallbackStrategy"_s);
    m_fallback->addItem(tr("weighted round robin (default)"), QString());
    for (const QString &id : strategyIds()) {
        if (id != u"session_affinity"_s)
            m_fallback->addItem(strategyLabel(id), id);
    }
    m_fallback->setToolTip(tr("session_affinity: how requests without a session key are routed."));
    formLayout()->addRow(tr("Without a session key:"), m_fallback);
    addField(u"cache_threshold"_s, tr("Cache threshold:"), tr("0.5 (default)"),
             tr("cache_aware: the share of the prompt (0 to 1) a node must already have seen for the request "
                "to follow it; below that the least loaded node gets it."),
             true);
    addField(u"balance_abs_threshold"_s, tr("Balance, absolute:"), tr("4 (default)"),
             tr("cache_aware: when the busiest node has more than this many requests (in flight plus queued) "
                "beyond the idlest…"),
             true);
    addField(u"balance_rel_threshold"_s, tr("Balance, relative:"), tr("1.5 (default)"),
             tr("…and more than this many times its load, the least loaded node gets the request whatever "
                "the others have cached."),
             true);
    connect(m_fallback, &QComboBox::activated, this, [this] {
        const QString id = m_fallback->currentData().toString();
        if (id == m_form.routingSettings.value(u"fallback_strategy"_s))
            return;
        const JsonPath at = settingsPath({u"routing"_s, u"fallback_strategy"_s});
        emit editRequested({id.isEmpty() ? JsonEdit::remove(at) : JsonEdit::set(at, jsonQuote(id))});
    });
}

JsonPath RoutingSettingsBox::pathOf(const QString &key) const
{
    return settingsPath({u"routing"_s, key});
}

void RoutingSettingsBox::setForm(const FormData &form)
{
    m_form = form;
    setValues(form.routingSettings);
    const QString fallback = form.routingSettings.value(u"fallback_strategy"_s);
    const int i = m_fallback->findData(fallback);
    m_fallback->setCurrentIndex(i >= 0 ? i : 0);
    m_fallback->setItemText(0,
                            i < 0 && !fallback.isEmpty() ? fallback : tr("weighted round robin (default)"));
}

} // namespace switchyard::ui
