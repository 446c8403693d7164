#!/usr/bin/env bash
# Re-scans ui/, app/, client/, gateway/link/ and i18n/ for tr() strings and updates resources/translations/*.ts (lupdate,
# via the CMake target update_translations). New strings come in unfinished: translate them in Qt Linguist
# (linguist resources/translations/switchyard_zh_CN.ts), commit the .ts; the build compiles and embeds it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target update_translations
grep -c 'type="unfinished"' resources/translations/*.ts | sed 's/^/unfinished: /' || true
