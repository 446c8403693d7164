#!/usr/bin/env bash
# Builds a gateway-only tree (no UI) with sanitizers and runs the suites in it.
#   scripts/test-sanitizers.sh asan   ASan+UBSan, build-asan/, every suite of the tree (CI runs this)
#   scripts/test-sanitizers.sh tsan   TSan, build-tsan/, the threaded gateway suites
# Extra arguments go to ctest (e.g. -R tst_faults). Qt is not instrumented: TSan reports inside Qt and
# glib frames are suppressed (tests/sanitizers/tsan.supp explains why); none in Switchyard's code is.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-asan}"
shift || true
supp="$PWD/tests/sanitizers"
case "$mode" in
asan)
    dir=build-asan
    flags=(-DSWITCHYARD_SANITIZE='address;undefined')
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # The suites that have passed an ASan run, by name: a new suite joins once one has (so CI never fails on
    # a suite nobody ran under ASan).
    select=(-R '^(tst_(httpparsers|epolldispatcher|epolldispatcher_noring|deadlines|plainsocket|plainsocket_noring|bytewriter|virtualkeys|historyapi|historystore|historycrash|requestblock|gateway_usagesniffer|configloader|configproblems|bifrostexport|gateway|configapi|safedefaults|stats|health|faults|hostileclients|performancemodel|simnode|simnodefaults|simnodeload|chatwire|benchrunner|lastresort|managementapi|tlslistener|httpclient|weightedschedule|routingtable|upstreampool|dispatcher|cors|roles|gatewaystatus|localgatewaylink|configdiff|configcontroller|clock|openaiwire|benchhistory|pinnedcertificate|managementwire|remotegatewaylink|fleetlink|fleetmerge|usagerequest|usagechunkfilter|endpoints|responseidmemory|multiturn|multipartform|vllmendpoints|audioupload|uploadexchange|rendezvous|routingstrategies|affinity|streamtokens|prefixindex|prefixcache|tokencounter|requestcsv)|fuzzreplay_(chunkeddecoder|config|prometheustext|requestbody|requestparser|responseparser|streamusage|multipartform)|soak_short)$')
    ;;
tsan)
    dir=build-tsan
    flags=(-DSWITCHYARD_SANITIZE=thread)
    export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1:report_signal_unsafe=0"
    select=(-R 'tst_(gateway|health|faults|hostileclients|simnode|stats|configapi|safedefaults|tokencounter|epolldispatcher|upstreampool|plainsocket)')
    ;;
*)
    echo "usage: $0 asan|tsan [ctest args]" >&2
    exit 2
    ;;
esac
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWITCHYARD_BUILD_UI=OFF "${flags[@]}" >/dev/null
cmake --build "$dir" -j"${BUILD_JOBS:-2}"
cd "$dir"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 600 -j1 "${select[@]}" "$@"
