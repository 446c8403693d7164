#include "connect/recentgateways.h"

#include "connect/gatewayurl.h"

#include <QSettings>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString SettingsKey = u"connect/recentGateways"_s;
}

RecentGateways::RecentGateways(QSettings *settings)
    : m_settings(settings ? settings : new QSettings()), m_ownsSettings(!settings)
{
}

RecentGateways::~RecentGateways()
{
    if (m_ownsSettings)
        delete m_settings;
}

QSettings &RecentGateways::settings() const
{
    return *m_settings;
}

QStringList RecentGateways::urls() const
{
    QStringList out;
    // The file may have been edited by hand or by another version: read it as untrusted input.
    const QStringList stored = settings().value(SettingsKey).toStringList();
    for (const QString &s : stored) {
        auto url = GatewayUrl::parse(s);
        if (!url)
            continue;
        const QString c = GatewayUrl::canonical(*url);
        if (!out.contains(c))
            out.append(c);
        if (out.size() == MaxEntries)
            break;
    }
    return out;
}

void RecentGateways::add(const QString &url)
{
    auto parsed = GatewayUrl::parse(url);
    if (!parsed)
        return;
    const QString c = GatewayUrl::canonical(*parsed);
    QStringList list = urls();
    list.removeAll(c);
    list.prepend(c);
    write(list.mid(0, MaxEntries));
}

void RecentGateways::remove(const QString &url)
{
    auto parsed = GatewayUrl::parse(url);
    QStringList list = urls();
    list.removeAll(parsed ? GatewayUrl::canonical(*parsed) : url);
    write(list);
}

void RecentGateways::clear()
{
    settings().remove(SettingsKey);
}

void RecentGateways::write(const QStringList &urls)
{
    if (urls.isEmpty())
        settings().remove(SettingsKey);
    else
        settings().setValue(SettingsKey, urls);
}

} // namespace switchyard::ui
