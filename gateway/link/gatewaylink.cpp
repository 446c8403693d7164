#include "link/gatewaylink.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::link {

QString linkStateName(LinkState state)
{
    switch (state) {
    case LinkState::Connecting: return u"connecting"_s;
    case LinkState::Connected: return u"connected"_s;
    case LinkState::Unreachable: return u"unreachable"_s;
    case LinkState::Unauthorized: return u"unauthorized"_s;
    case LinkState::Forbidden: return u"forbidden"_s;
    case LinkState::Incompatible: return u"incompatible"_s;
    }
    return u"unknown"_s;
}

} // namespace switchyard::link
