// libFuzzer target: the config loader (gateway/config/configloader: config::parseConfig), which reads a
// user's file but also documents posted to the management API. Any input must give a config or a list of
// problems, never a crash; the Bifrost export of the same document likewise.

#include "config/configloader.h"
#include "fuzzsplit.h"

#include <cstdio>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArrayView json(reinterpret_cast<const char *>(data), qsizetype(size));
    // A fixed environment: "env.X" references resolve to a value or to unset, never to the fuzzing host's.
    const config::EnvLookup env = [](const QString &name) -> std::optional<QString> {
        if (name.startsWith(u'K'))
            return QStringLiteral("value");
        return std::nullopt;
    };
    const auto parsed = config::parseConfig(json, env);
    if (!parsed) {
        FUZZ_ASSERT(!parsed.error().isEmpty());
        for (const auto &p : parsed.error())
            (void)p.toString();
    }
    (void)config::exportBifrostConfig(json);
    return 0;
}
