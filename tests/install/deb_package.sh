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
# The docs served as MCP resources are the packaged ones (marked to tell them
# from the source tree's).
docs="$root/usr/share/doc/mcphost/docs"
[ -f "$docs/expressions.md" ] || fail "no docs in /usr/share/doc/mcphost/docs"
echo "packaged-docs-marker" >> "$docs/expressions.md"
answer=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"deb-test","version":"1"}}}' \
    '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"mcphost://docs/expressions"}}' |
    "$root/usr/bin/mcphost" --transport stdio 2>/dev/null)
echo "$answer" | grep -q 'packaged-docs-marker' ||
    fail "mcphost://docs/expressions is not read from the packaged docs: $answer"
echo "deb_package: ok ($(basename "$deb"), Depends: $depends)"
