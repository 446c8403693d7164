#!/usr/bin/env bash
# Builds the Debian package dist/switchyard_<version>_<arch>.deb (CPack, from ./build) and checks it:
# dependencies (dpkg-shlibdeps), contents, conffile, desktop entry, AppStream metainfo, man page, example
# config. With --install-test (root, Debian 12) it also installs the package with apt, starts
# `switchyard --help`, the headless demo and the service unit's checks, then purges it again.
#   scripts/package.sh [--install-test]
set -euo pipefail
cd "$(dirname "$0")/.."
install_test=0
[ "${1:-}" = "--install-test" ] && install_test=1

# Packaging tools (not needed to build or test): dpkg-shlibdeps, the validators.
tools=(dpkg-dev desktop-file-utils appstream file)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

bash scripts/build.sh
rm -f dist/switchyard_*.deb
(cd build && cpack -G DEB >/dev/null)
deb=$(ls dist/switchyard_*.deb)
echo "built $deb ($(du -h "$deb" | cut -f1))"

fail() { echo "package check failed: $*" >&2; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6core6 libqt6network6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6keychain1 libqt6sql6-sqlite libhiredis qt6-qpa-plugins libstdc++6; do
  [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib"
done
echo "Recommends: $(dpkg-deb -f "$deb" Recommends)"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/switchyard ./usr/bin/switchyard-simnode \
         ./usr/share/applications/io.github.switchyard.Switchyard.desktop \
         ./usr/share/metainfo/io.github.switchyard.Switchyard.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/switchyard.svg \
         ./usr/share/icons/hicolor/16x16/apps/switchyard.png ./usr/share/icons/hicolor/512x512/apps/switchyard.png \
         ./usr/share/man/man1/switchyard.1.gz ./usr/lib/systemd/system/switchyard.service \
         ./etc/switchyard/config.json ./usr/share/doc/switchyard/DEPLOYMENT.md; do
  grep -qxF "$f" <<<"$contents" || fail "missing $f"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -e "$deb" "$work/DEBIAN"
grep -qxF /etc/switchyard/config.json "$work/DEBIAN/conffiles" || fail "config.json is not a conffile"
dpkg-deb -x "$deb" "$work/root"
desktop-file-validate "$work/root/usr/share/applications/io.github.switchyard.Switchyard.desktop"
appstreamcli validate --no-net "$work/root/usr/share/metainfo/io.github.switchyard.Switchyard.metainfo.xml" >/dev/null
# The man page renders without warnings and names every option --help lists.
man_text=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$work/root/usr/share/man/man1/switchyard.1.gz" 2>"$work/man.err")
[ -s "$work/man.err" ] && { cat "$work/man.err"; fail "man page warnings"; }
for opt in $({ build/app/switchyard --help; build/app/switchyard --bench --help; } | grep -o -- '--[a-z][a-z-]*' | sort -u); do
  grep -qF -- "$opt" <<<"$man_text" || fail "the man page does not document $opt"
done
build/app/switchyard --check-config "$work/root/etc/switchyard/config.json" >/dev/null || fail "example config invalid"
echo "package checks passed"

if ((install_test)); then
  [ "$(id -u)" -eq 0 ] || fail "--install-test needs root"
  had_user=0
  getent passwd switchyard >/dev/null && had_user=1
  # Without Recommends, so the purge below leaves the machine as it was (dependencies it pulled stay).
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "./$deb" >/dev/null
  /usr/bin/switchyard --help >/dev/null
  /usr/bin/switchyard --version
  out=$(timeout -s INT 5 /usr/bin/switchyard --headless --demo --listen 127.0.0.1:0 2>/dev/null || true)
  [[ "$out" == "listening on http://127.0.0.1:"* ]] || fail "the headless demo did not start: $out"
  echo "headless demo: $out"
  getent passwd switchyard >/dev/null || fail "no switchyard user"
  [ "$(stat -c %U:%G:%a /etc/switchyard/config.json)" = "root:switchyard:640" ] || fail "config.json owner/mode"
  runuser -u switchyard -- /usr/bin/switchyard --check-config /etc/switchyard/config.json >/dev/null
  # The service's command as its user (on a free port): it starts, reloads on SIGHUP, stops on SIGTERM.
  runuser -u switchyard -- /usr/bin/switchyard --headless --config /etc/switchyard/config.json \
    --listen 127.0.0.1:0 >"$work/svc.out" 2>"$work/svc.err" &
  svc=$!
  for _ in $(seq 50); do grep -q listening "$work/svc.out" && break; sleep 0.1; done
  gw=$(pgrep -P "$svc" || echo "$svc") # runuser's child is the gateway
  kill -HUP "$gw"
  for _ in $(seq 50); do grep -q "config reloaded (SIGHUP)" "$work/svc.err" && break; sleep 0.1; done
  kill -TERM "$gw"
  wait "$svc" || fail "the service command did not exit 0 on SIGTERM"
  grep -q "config reloaded (SIGHUP)" "$work/svc.err" || { cat "$work/svc.err"; fail "no reload on SIGHUP"; }
  echo "service command as user switchyard: $(cat "$work/svc.out"), reloaded on SIGHUP, stopped on SIGTERM"
  systemd-analyze verify /usr/lib/systemd/system/switchyard.service
  desktop-file-validate /usr/share/applications/io.github.switchyard.Switchyard.desktop
  DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq switchyard >/dev/null
  ((had_user)) || deluser --system switchyard >/dev/null 2>&1 || true
  [ ! -e /usr/bin/switchyard ] || fail "not removed"
  echo "install test passed (installed, started, purged)"
fi
