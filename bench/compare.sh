#!/usr/bin/env bash
# bench/compare.sh - mcphost beside VICE on the same workloads, in paired
# runs: each pair runs mcphost and then each VICE emulator found, one after
# the other, so both see the same load on a shared machine. Prints emulated
# MHz (the median of the pairs) and the ratio mcphost / VICE.
#
# Workloads, per machine: idle at READY and the machine bench's busy program
# (bench_c64/_vic20/_plus4 --write-busy-prg), with sound on and (not on the
# VIC-20, which always synthesises) off, in
# warp, for a fixed number of cycles (--limit-cycles / -limitcycles; the
# Plus/4 counts 1.77 MHz ticks in both). Start-up is included in both.
#
# VICE binaries are looked for in $VICE_BIN_DIR, then on PATH: x64sc and x64
# for the C64, xvic, xplus4. Without any, only mcphost's figures print.
# Both load the original ROMs: mcphost from --rom-dir's C64/, VIC20/ and
# PLUS4/ (default ../shared/roms beside the repository, or
# $MCPHOST_TEST_ROMS), VICE its own.
#
# usage: bench/compare.sh [--build DIR] [--rom-dir DIR] [--pairs N]
#                         [--cycles N] [--machines "c64 vic20 plus4"]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
roms=${MCPHOST_TEST_ROMS:-$root/../shared/roms}
pairs=3
cycles=50000000
machines="c64 vic20 plus4"

die() { echo "compare.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --rom-dir) roms=$2; shift 2 ;;
        --pairs) pairs=$2; shift 2 ;;
        --cycles) cycles=$2; shift 2 ;;
        --machines) machines=$2; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[[ $pairs =~ ^[1-9][0-9]*$ ]] || die "--pairs takes a positive number"
[[ $cycles =~ ^[1-9][0-9]*$ ]] || die "--cycles takes a positive number"
mcphost=$build/bin/mcphost
[ -x "$mcphost" ] || die "no $mcphost: build first (cmake --build build)"
[ -d "$roms" ] || die "no ROM directory $roms: give --rom-dir (the original ROMs, as VICE uses)"

work=$(mktemp -d /tmp/mcphost-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The VICE binary for an emulator name, or nothing.
find_vice() {
    if [ -n "${VICE_BIN_DIR:-}" ] && [ -x "$VICE_BIN_DIR/$1" ]; then echo "$VICE_BIN_DIR/$1"; return; fi
    command -v "$1" 2>/dev/null || true
}

# Wall seconds of one command; fails when it ran less than the cycles it
# was given (it exited early: a wrong option, a missing ROM).
timed() {
    local t0 t1 code=0
    t0=$(date +%s.%N)
    "$@" >"$work/out.txt" 2>&1 || code=$?
    t1=$(date +%s.%N)
    echo "$t0 $t1 $code"
}

mhz() { awk -v c="$cycles" -v a="$1" -v b="$2" 'BEGIN {print c / (b - a) / 1e6}'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

# mcphost's arguments for a workload (idle|busy, on|off).
mcphost_args() {
    local machine=$1 load=$2 sound=$3
    local args=(--machine "$machine" --transport none --warp --log-level error
                --rom-dir "$roms/${rom_dirs[$machine]}" --limit-cycles "$cycles")
    [ "$sound" = off ] && args+=(--config sound=off)
    [ "$load" = busy ] && args+=(--autostart "$work/$machine-busy.prg")
    printf '%s\n' "${args[@]}"
}

# VICE's arguments for the same workload (sound to a WAV file on
# /dev/null when on: VICE's dummy device skips SID work).
vice_args() {
    local machine=$1 load=$2 sound=$3
    local args=(-default -logfile /dev/null +logcolorize -warp -limitcycles "$cycles")
    if [ "$sound" = on ]; then args+=(-sounddev wav -soundarg /dev/null); else args+=(+sound); fi
    [ "$machine" = vic20 ] && args+=(-basicload)
    [ "$load" = busy ] && args+=(-autostartprgmode 1 -autostart "$work/$machine-busy.prg")
    printf '%s\n' "${args[@]}"
}

declare -A vice_names=([c64]="x64sc x64" [vic20]=xvic [plus4]=xplus4)
declare -A sound_modes=([c64]="on off" [vic20]="on off" [plus4]="on off")
declare -A rom_dirs=([c64]=C64 [vic20]=VIC20 [plus4]=PLUS4)
declare -A bench_names=([c64]=bench_c64 [vic20]=bench_vic20 [plus4]=bench_plus4)

echo "compare.sh: $cycles cycles a run, median of $pairs pairs, ROMs from $roms"
for machine in $machines; do
    [ -n "${bench_names[$machine]:-}" ] || die "unknown machine $machine (c64, vic20, plus4)"
    "$build/bin/${bench_names[$machine]}" --write-busy-prg "$work/$machine-busy.prg" ||
        die "${bench_names[$machine]} could not write its busy program"
    emulators=()
    for name in ${vice_names[$machine]}; do
        path=$(find_vice "$name")
        [ -n "$path" ] && emulators+=("$name=$path")
    done
    [ ${#emulators[@]} -eq 0 ] &&
        echo "$machine: no VICE (${vice_names[$machine]}) in \$VICE_BIN_DIR or on PATH: mcphost only"
    printf '%-8s %-5s %-5s %10s' "$machine" load sound "mcphost"
    for e in "${emulators[@]}"; do printf ' %10s %7s' "${e%%=*}" ratio; done
    echo
    for load in idle busy; do
        for sound in ${sound_modes[$machine]}; do
            mapfile -t margs < <(mcphost_args "$machine" "$load" "$sound")
            mapfile -t vargs < <(vice_args "$machine" "$load" "$sound")
            : >"$work/m.txt"
            for e in "${emulators[@]}"; do : >"$work/${e%%=*}.txt"; done
            for ((p = 0; p < pairs; p++)); do
                read -r t0 t1 code < <(timed "$mcphost" "${margs[@]}")
                [ "$code" = 1 ] || die "mcphost $machine $load/$sound ended with $code, not at the cycle limit: $(tail -3 "$work/out.txt")"
                mhz "$t0" "$t1" >>"$work/m.txt"
                for e in "${emulators[@]}"; do
                    read -r t0 t1 code < <(timed "${e#*=}" "${vargs[@]}")
                    mhz "$t0" "$t1" >>"$work/${e%%=*}.txt"
                done
            done
            m=$(median <"$work/m.txt")
            printf '%-8s %-5s %-5s %6.1f MHz' "" "$load" "$sound" "$m"
            for e in "${emulators[@]}"; do
                v=$(median <"$work/${e%%=*}.txt")
                printf ' %6.1f MHz %6.2fx' "$v" "$(awk -v a="$m" -v b="$v" 'BEGIN {print a / b}')"
            done
            echo
        done
    done
done
