#!/bin/sh
# check.sh MCPHOST SHARED_DIR EXPECTED_LIST MACHINE
# Runs SHARED_DIR/testdata/vice-testprogs/MACHINE.txt with SHARED_DIR's
# run.sh on MCPHOST and compares with EXPECTED_LIST (one program path a
# line, '#' comments): exit 1 when a listed program does not pass, 77
# (skipped) when the test data, the runner or the ROMs are missing.
# $MCPHOST_TEST_ROMS overrides SHARED_DIR/roms; $MH_ACCEPTANCE_JOBS the
# parallel runs (2); $MH_ACCEPTANCE_TIMEOUT the wall-clock seconds a program
# may take (300: the longest take ~150 million cycles, 15-20 s on an idle
# machine; a loaded one must not turn them into false regressions).
set -u
mcphost=$1 shared=$2 expected=$3 machine=$4
progs=$shared/testdata/vice-testprogs
runner=$shared/tools/testprogs/run.sh
roms=${MCPHOST_TEST_ROMS:-$shared/roms}
list=$progs/$machine.txt

skip() {
    echo "acceptance.$machine: skipped: $*"
    exit 77
}
[ -f "$list" ] || skip "no test list $list (the VICE test programs are not beside the repo)"
[ -f "$runner" ] || skip "no runner $runner"
[ -d "$roms" ] || skip "no ROM directory $roms (set MCPHOST_TEST_ROMS)"
[ -f "$expected" ] || { echo "acceptance.$machine: no expected list $expected"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mh-acceptance.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
start=$(date +%s)
MCPHOST=$mcphost bash "$runner" mcphost "$progs" "$list" --rom-dir "$roms" \
    -j "${MH_ACCEPTANCE_JOBS:-2}" --timeout "${MH_ACCEPTANCE_TIMEOUT:-300}" --out "$tmp/results.tsv" --logs "$tmp/logs" >"$tmp/run.txt" 2>&1
[ -s "$tmp/results.tsv" ] || { cat "$tmp/run.txt"; echo "acceptance.$machine: the runner wrote no results"; exit 1; }
tail -n 1 "$tmp/run.txt"
echo "acceptance.$machine: $(($(date +%s) - start)) s"

awk -F '\t' 'NR > 1 && $3 == "pass" { print $1 }' "$tmp/results.tsv" | sort >"$tmp/passed"
grep -v '^[[:space:]]*\(#\|$\)' "$expected" | sort >"$tmp/expected"
lost=$(comm -23 "$tmp/expected" "$tmp/passed")
gained=$(comm -13 "$tmp/expected" "$tmp/passed")
if [ -n "$gained" ]; then
    echo "acceptance.$machine: passing now but not in $(basename "$expected") (add them):"
    echo "$gained" | sed 's/^/  /'
fi
if [ -n "$lost" ]; then
    echo "acceptance.$machine: REGRESSION: expected to pass, did not:"
    for t in $lost; do
        printf '  %s: %s\n' "$t" "$(awk -F '\t' -v t="$t" '$1 == t { print $3 " " $4 }' "$tmp/results.tsv")"
    done
    exit 1
fi
echo "acceptance.$machine: all $(wc -l <"$tmp/expected") expected passes pass"
