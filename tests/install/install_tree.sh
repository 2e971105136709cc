#!/bin/sh
# install_tree.sh BUILD_DIR - `cmake --install` into a scratch prefix, then
# checks the tree a user gets and runs the installed binary from it: its
# plugins are found, a C64 runs headless, MCP answers over stdio, the SDK is
# found by pkg-config, and the man page renders and documents every option.
set -eu
build=$1
prefix=$(mktemp -d "${TMPDIR:-/tmp}/mcphost-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install_tree: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
bin=$prefix/bin/mcphost
[ -x "$bin" ] || fail "no bin/mcphost"
plugins=$(find "$prefix" -path '*/mcphost/plugins/*.so' | wc -l)
[ "$plugins" -ge 10 ] || fail "only $plugins plugins installed"
[ -f "$prefix/include/mcphost/plugin.h" ] || fail "no SDK headers"
[ -f "$prefix/share/doc/mcphost/README.md" ] || fail "no README in share/doc/mcphost"
[ -f "$prefix/share/doc/mcphost/docs/architecture.md" ] || fail "no docs in share/doc/mcphost/docs"
man=$prefix/share/man/man1/mcphost.1
[ -f "$man" ] || fail "no man page"

# The installed binary, not the build tree's: plugins from the prefix.
"$bin" --version | grep -q mcphost || fail "--version"
"$bin" --list-plugins | grep -q "$prefix/bin/../lib.*/mcphost/plugins/machine-c64.so" ||
    fail "the installed binary does not load its installed plugins"
code=0
"$bin" --machine c64 --warp --limit-cycles 200000 </dev/null 2>/dev/null || code=$?
[ "$code" -eq 1 ] || fail "a headless C64 run to --limit-cycles exited $code, not 1"
answer=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"install-test","version":"1"}}}' |
    "$bin" --transport stdio 2>/dev/null)
echo "$answer" | grep -q '"serverInfo"' || fail "no initialize answer over stdio: $answer"

# The docs as MCP resources come from the installed tree (a marker added to
# the installed file shows it is that file, not the source tree's).
echo "installed-docs-marker" >> "$prefix/share/doc/mcphost/docs/expressions.md"
answer=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"install-test","version":"1"}}}' \
    '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"mcphost://docs/expressions"}}' |
    "$bin" --transport stdio 2>/dev/null)
echo "$answer" | grep -q 'installed-docs-marker' ||
    fail "mcphost://docs/expressions is not read from the installed docs: $answer"

# The SDK: pkg-config finds it in the prefix.
include=$(PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name mcphost.pc | head -n 1)") \
    pkg-config --cflags-only-I mcphost | sed 's/^ *-I//; s/ *$//')
[ -f "$include/mcphost/plugin.h" ] || fail "pkg-config's include directory ($include) has no mcphost/plugin.h"

# The man page renders without warnings and names every option of --help.
warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1) || fail "groff failed on the man page"
[ -z "$warnings" ] || fail "man page warnings: $warnings"
for option in $("$bin" --help | grep -o -- '^  --[a-z0-9-]*'); do
    grep -q -- "$(echo "$option" | sed 's/-/\\\\-/g')" "$man" || fail "the man page lacks $option"
done
echo "install_tree: ok ($plugins plugins under $prefix)"
