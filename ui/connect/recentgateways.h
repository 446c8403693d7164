#pragma once

// The gateways this panel connected to lately, most recent first, for the Connect dialog. Kept in the
// panel's QSettings (`connect/recentGateways`) as canonical URLs only: never a key (keys live in the
// secret store, see CredentialStore). Bounded, so a panel that met many gateways keeps a short list.

#include <QString>
#include <QStringList>

class QSettings;

namespace switchyard::ui {

class RecentGateways final
{
    Q_DISABLE_COPY_MOVE(RecentGateways)

public:
    static constexpr int MaxEntries = 10;

    // settings: where the list lives (tests pass their own); null = the panel's QSettings.
    explicit RecentGateways(QSettings *settings = nullptr);
    ~RecentGateways();

    // Canonical URLs ("https://gw.example:8443"), most recent first; entries that no longer parse are
    // left out.
    QStringList urls() const;
    // Moves the gateway to the front (adding it if new) and drops the oldest beyond MaxEntries. An
    // address that is not a valid gateway URL is ignored.
    void add(const QString &url);
    void remove(const QString &url);
    void clear();

private:
    QSettings &settings() const;
    void write(const QStringList &urls);

    QSettings *m_settings;
    bool m_ownsSettings;
};

} // namespace switchyard::ui
