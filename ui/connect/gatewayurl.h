#pragma once

// A remote gateway's address as the panel keeps it: http or https, a host, a port (the scheme's own when
// none is typed), nothing else. One spelling per gateway, so the recent list has no duplicates and the
// secret store finds a key however the operator typed the address; a user name or password typed into
// the URL is refused, so no key ever lands in the recent list.

#include "common/expected.h"

#include <QCoreApplication>
#include <QString>
#include <QUrl>

namespace switchyard::ui {

struct GatewayUrl
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::GatewayUrl)

public:
    // "gateway.lan:8080" and "HTTP://Gateway.lan:8080/" both become "http://gateway.lan:8080". An error
    // says what is wrong in words the Connect dialog shows (translated).
    static Expected<QUrl, QString> parse(const QString &text);
    // The canonical spelling of an already valid URL: scheme://host:port, no path.
    static QString canonical(const QUrl &url);
};

} // namespace switchyard::ui
