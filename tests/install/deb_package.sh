#!/bin/sh
# deb_package.sh BUILD_DIR - builds the Debian package with CPack, checks its
# control fields and contents, installs it with dpkg into a scratch root
# (never the system: --root/--admindir) and runs the installed binary.
set -eu
build=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/mcphost-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "deb_package: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log" >&2; fail "cpack failed"; }
deb=$(find "$work/out" -maxdepth 1 -name 'mcphost_*.deb' | head -n 1)
[ -n "$deb" ] || fail "no mcphost_*.deb"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libcjson libmicrohttpd libsdl2; do
    echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib: $depends"
done
dpkg-deb -f "$deb" Recommends | grep -q open-roms || fail "Recommends lacks open-roms"
dpkg-deb -c "$deb" | grep -q '\./usr/bin/mcphost$' || fail "no /usr/bin/mcphost in the package"

root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
dpkg --root="$root" --admindir="$root/var/lib/dpkg" --force-depends --force-not-root \
    --force-script-chrootless --log=/dev/null -i "$deb" >"$work/dpkg.log" 2>&1 ||
    { cat "$work/dpkg.log" >&2; fail "dpkg -i failed"; }
dpkg --root="$root" --admindir="$root/var/lib/dpkg" -s mcphost | grep -q '^Status: install ok installed' ||
    fail "dpkg does not list mcphost as installed"
"$root/usr/bin/mcphost" --list-plugins | grep -q "machine-c64.so" || fail "the installed binary finds no plugins"
code=0
"$root/usr/bin/mcphost" --machine c64 --warp --limit-cycles 200000 </dev/null 2>/dev/null || code=$?
[ "$code" -eq 1 ] || fail "the packaged binary's headless run exited $code, not 1"
echo "deb_package: ok ($(basename "$deb"), Depends: $depends)"
