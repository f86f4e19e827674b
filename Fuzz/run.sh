#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for a while (docs/reliability.md).
#
#   Fuzz/run.sh [--seconds N] [--build-only] [TARGET...]
#   Fuzz/run.sh --list
#
# Targets: snapshot snapshot-fields clicks bookmarks history-batch toml command-output i3bar-stream
# prometheus-text wants-file i3blocks-config budget-file gpu-text smaps json audio-text media-text config-import (default: all).
# Each target is one Swift file here, compiled with the real module sources
# (Sources/UTF8Text, SnapshotCodec, CommandOptions, BarCore, Bookmarks, SystemCalls, ProcFS, HistoryRecords, TOML, PrometheusText, JSONCoding, ConfigImport: the normal twins, not the
# Embedded ones; BudgetFile, SmapsMappings and BaselineFigures: the CLI's budgets-file, smaps and baseline readers) under `swiftc -sanitize=fuzzer,address`, into .build/fuzz. A run reads
# the committed seeds (Fuzz/corpus/TARGET, never written) and keeps what it finds in
# .build/fuzz/corpus-work/TARGET, so later runs go on from there and git sees nothing.
# FUZZ_SEED=N fixes libFuzzer's seed (0, the default: a new one each run); the test
# command's smoke uses 1, so a CI run does the same work each time.
# Exits 1 with the path of the saved input when a target crashes, breaks a property,
# times out or runs out of memory; 2 for a bad command line or a failed build.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(snapshot snapshot-fields clicks bookmarks history-batch toml command-output i3bar-stream prometheus-text wants-file i3blocks-config budget-file gpu-text smaps json audio-text media-text config-import cgroup-text)
seconds=60
build_only=0
targets=()
while (($#)); do
    case $1 in
        --seconds) [[ $# -ge 2 ]] || { echo "Fuzz/run.sh: --seconds needs a value" >&2; exit 2; }
                   seconds=$2; shift 2 ;;
        --seconds=*) seconds=${1#--seconds=}; shift ;;
        --build-only) build_only=1; shift ;;
        --list) printf '%s\n' "${all_targets[@]}"; exit 0 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "Fuzz/run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || { echo "Fuzz/run.sh: --seconds takes a whole number above 0" >&2; exit 2; }
((${#targets[@]})) || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
    [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "Fuzz/run.sh: unknown target $t (${all_targets[*]})" >&2; exit 2; }
done

build=.build/fuzz
mkdir -p "$build/modules" "$build/obj" "$build/bin" "$build/logs"
# The code under test gets libFuzzer's coverage counters and ASan; the harness ASan only.
# SnapshotCodec's CRC-32 folds blocks in C (Sources/CCRC32), and it and ProcFS copy bytes and
# make system calls through CDirect's inline functions (a header only), and ProcFS checks config
# files with CTrustedFile (C, linked where ProcFS is), and it and HistoryRecords reach the C
# library through CLibc (its inline functions, a header here): their module maps for every compile.
crc_flags=(-Xcc -fmodule-map-file=Sources/CCRC32/include/module.modulemap
           -Xcc -fmodule-map-file=Sources/CLibc/include/module.modulemap
           -Xcc -fmodule-map-file=Sources/CDirect/include/module.modulemap
           -Xcc -fmodule-map-file=Sources/CTrustedFile/include/module.modulemap)
flags=(-O -g -sanitize=fuzzer,address -parse-as-library -I "$build/modules" "${crc_flags[@]}")
harness_flags=(-O -g -sanitize=address -parse-as-library -I "$build/modules" "${crc_flags[@]}")

# The modules a target links, in dependency order, and the support files it compiles.
modules_of() {
    case $1 in
        snapshot|snapshot-fields|clicks|command-output|i3bar-stream) echo UTF8Text SnapshotCodec TOML CommandOptions BarCore ;;
        bookmarks) echo UTF8Text Bookmarks ;;
        history-batch) echo UTF8Text SnapshotCodec SystemCalls ProcFS HistoryRecords ;;
        toml) echo UTF8Text TOML ;;
        prometheus-text) echo UTF8Text SnapshotCodec PrometheusText ;;
        wants-file) echo UTF8Text SnapshotCodec ;;
        i3blocks-config) echo UTF8Text SnapshotCodec TOML CommandOptions BarCore ;;
        budget-file) echo UTF8Text TOML BudgetFile ;;
        gpu-text|audio-text|media-text|cgroup-text) echo UTF8Text SnapshotCodec SystemCalls ProcFS ;;
        smaps) echo SmapsMappings ;;
        json) echo JSONCoding BaselineFigures ;;
        config-import) echo UTF8Text TOML ConfigImport ;;
    esac
}
support_of() {
    case $1 in
        snapshot|snapshot-fields|command-output|i3bar-stream) echo Fuzz/Support/*.swift Fuzz/Support/Bar/*.swift ;;
        *) echo Fuzz/Support/*.swift ;;
    esac
}

# True when $1 is missing or older than any of the other files.
stale() {
    local out=$1; shift
    [[ -e $out ]] || return 0
    local f
    for f in "$@"; do [[ $f -nt $out ]] && return 0; done
    return 1
}

# Drops the gold linker's warning about each ASan helper it cannot export (dozens per link).
quiet() { grep -v "Cannot export local symbol" || true; }

declare -A built=()
# BarCore's time block calls libc's strftime through the CClock C module.
clock_flags=(-Xcc -fmodule-map-file=Sources/CClock/include/module.modulemap)
build_clock() {
    if stale "$build/obj/CClock.o" Sources/CClock/clock.c Sources/CClock/include/CClock.h "$0"; then
        nice -n 10 clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CClock/include -c Sources/CClock/clock.c -o "$build/obj/CClock.o" ||
            { echo "Fuzz/run.sh: CClock does not build" >&2; exit 2; }
    fi
}
build_crc() {
    if stale "$build/obj/CCRC32.o" Sources/CCRC32/crc32.c Sources/CCRC32/include/CCRC32.h "$0"; then
        nice -n 10 clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CCRC32/include -c Sources/CCRC32/crc32.c -o "$build/obj/CCRC32.o" ||
            { echo "Fuzz/run.sh: CCRC32 does not build" >&2; exit 2; }
    fi
}
# CommandOptions reads main's argv through CLibc, whose one C file saves it (linked with it).
build_clibc() {
    if stale "$build/obj/CLibc.o" Sources/CLibc/shim.c Sources/CLibc/include/CLibc.h "$0"; then
        nice -n 10 clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CLibc/include -c Sources/CLibc/shim.c -o "$build/obj/CLibc.o" ||
            { echo "Fuzz/run.sh: CLibc does not build" >&2; exit 2; }
    fi
}
build_trusted() {
    if stale "$build/obj/CTrustedFile.o" Sources/CTrustedFile/trusted.c Sources/CTrustedFile/include/CTrustedFile.h "$0"; then
        nice -n 10 clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CTrustedFile/include -c Sources/CTrustedFile/trusted.c -o "$build/obj/CTrustedFile.o" ||
            { echo "Fuzz/run.sh: CTrustedFile does not build" >&2; exit 2; }
    fi
}
build_module() {
    local m=$1
    [[ -n ${built[$m]:-} ]] && return 0
    local sources deps=()
    # Every Swift file of the module, its subfolders (Sections/, Blocks/, Outputs/) included.
    if [[ $m == BudgetFile ]]; then
        # Not a package module: the budgets file's parser, its sizes and durations, the
        # samples a figure needs and the overhead share (its key table says them), which import TOML alone, out of
        # SysstatsCLI (ArgumentParser).
        sources=(Sources/SysstatsCLI/Measure/BudgetFile.swift Sources/SysstatsCLI/Measure/Quantities.swift
                 Sources/SysstatsCLI/Measure/FigureQuality.swift Sources/SysstatsCLI/Measure/OverheadGovernor.swift)
        deps=("$build/obj/UTF8Text.o" "$build/obj/TOML.o")
    elif [[ $m == SmapsMappings ]]; then
        # Not a package module: measure's smaps parser, the standard library alone.
        sources=(Sources/SysstatsCLI/Measure/SmapsMappings.swift)
    elif [[ $m == BaselineFigures ]]; then
        # Not a package module: the baseline's figures as `budget check --baseline` checks
        # them, over JSONCoding alone.
        sources=(Sources/SysstatsCLI/Measure/BudgetBaselineFigures.swift)
        deps=("$build/obj/JSONCoding.o")
    else
        mapfile -t sources < <(find Sources/"$m" -name '*.swift' | sort)
    fi
    [[ $m == SnapshotCodec || $m == Bookmarks || $m == TOML ]] && deps=("$build/obj/UTF8Text.o")
    if [[ $m == SnapshotCodec ]]; then build_crc; deps+=("$build/obj/CCRC32.o"); fi
    [[ $m == SystemCalls ]] && deps=("$build/obj/UTF8Text.o")
    if [[ $m == ProcFS ]]; then build_trusted; deps=("$build/obj/UTF8Text.o" "$build/obj/SystemCalls.o" "$build/obj/CTrustedFile.o"); fi
    if [[ $m == CommandOptions ]]; then build_clibc; deps=("$build/obj/CLibc.o"); fi
    [[ $m == BarCore ]] && deps=("$build/obj/UTF8Text.o" "$build/obj/SnapshotCodec.o" "$build/obj/TOML.o" "$build/obj/CommandOptions.o" "$build/obj/CClock.o")
    [[ $m == HistoryRecords ]] && deps=("$build/obj/UTF8Text.o" "$build/obj/SnapshotCodec.o" "$build/obj/SystemCalls.o" "$build/obj/ProcFS.o")
    [[ $m == PrometheusText ]] && deps=("$build/obj/UTF8Text.o" "$build/obj/SnapshotCodec.o")
    [[ $m == ConfigImport ]] && deps=("$build/obj/UTF8Text.o" "$build/obj/TOML.o")
    local extra=()
    if [[ $m == BarCore ]]; then build_clock; extra=("${clock_flags[@]}"); fi
    if stale "$build/obj/$m.o" "${sources[@]}" "${deps[@]}" "$0"; then
        echo "fuzz: building module $m" >&2
        if ! nice -n 10 swiftc "${flags[@]}" "${extra[@]}" -wmo -module-name "$m" -emit-module-path "$build/modules/$m.swiftmodule" \
            -emit-object -o "$build/obj/$m.o" "${sources[@]}" 2>&1 | quiet; then
            rm -f "$build/obj/$m.o"
            echo "Fuzz/run.sh: module $m does not build" >&2; exit 2
        fi
    fi
    built[$m]=1
}

build_target() {
    local t=$1 m objects=() sources
    for m in $(modules_of "$t"); do build_module "$m"; objects+=("$build/obj/$m.o"); done
    local extra=()
    if [[ " ${objects[*]} " == *BarCore.o* ]]; then objects+=("$build/obj/CClock.o"); extra=("${clock_flags[@]}"); fi
    if [[ " ${objects[*]} " == *SnapshotCodec.o* ]]; then objects+=("$build/obj/CCRC32.o"); fi
    if [[ " ${objects[*]} " == *ProcFS.o* ]]; then objects+=("$build/obj/CTrustedFile.o"); fi
    if [[ " ${objects[*]} " == *CommandOptions.o* ]]; then objects+=("$build/obj/CLibc.o"); fi
    read -r -a sources <<< "Fuzz/$t.swift $(support_of "$t")"
    if stale "$build/bin/$t" "${sources[@]}" "${objects[@]}" "$0"; then
        echo "fuzz: building target $t" >&2
        # The harness without coverage counters: new paths in its own checks are not
        # progress, and its loops over every output byte would slow every run.
        if ! { nice -n 10 swiftc "${harness_flags[@]}" "${extra[@]}" -wmo -module-name "fuzz_${t//-/_}" -emit-object \
                   -o "$build/obj/fuzz-$t.o" "${sources[@]}" &&
               swiftc -sanitize=fuzzer,address "$build/obj/fuzz-$t.o" "${objects[@]}" -o "$build/bin/$t"; } 2>&1 | quiet; then
            rm -f "$build/bin/$t"
            echo "Fuzz/run.sh: target $t does not build" >&2; exit 2
        fi
    fi
}

# Longest input per target: a snapshot file's limit, a few click lines past the
# scanner's 4 KiB line limit, a bookmarks file of a few hundred rules, a config file
# several times a real one's size (the 64 KiB file limit is a unit test's).
max_len_of() {
    case $1 in
        snapshot) echo 16400 ;;
        snapshot-fields) echo 4096 ;;
        clicks|bookmarks|history-batch|toml|command-output|i3bar-stream|budget-file|json) echo 16384 ;;
        prometheus-text) echo 16384 ;;
        wants-file) echo 64 ;;
        i3blocks-config|config-import) echo 16384 ;;
        gpu-text|audio-text|media-text) echo 16384 ;;
    esac
}

# Two compiles at a time (FUZZ_BUILD_JOBS): the test command runs this beside its tests,
# whose processes mostly wait. The modules level by level (each needs only those of the
# levels before it), then the targets; each job a subshell, whose failure is its status.
jobs_at_once=${FUZZ_BUILD_JOBS:-2}
in_parallel() {   # FUNCTION ARG...: FUNCTION ARG for each ARG, $jobs_at_once at a time; 2 if one failed
    local f=$1 status=0 running=0 a
    shift
    for a in "$@"; do
        ("$f" "$a") &
        running=$((running + 1))
        if ((running >= jobs_at_once)); then wait -n || status=2; running=$((running - 1)); fi
    done
    while ((running > 0)); do wait -n || status=2; running=$((running - 1)); done
    return "$status"
}
needed=" "
for t in "${targets[@]}"; do needed+="$(modules_of "$t") "; done
level() {   # MODULE...: those the targets need, built side by side
    local m wanted=()
    for m in "$@"; do [[ $needed == *" $m "* ]] && wanted+=("$m"); done
    ((${#wanted[@]} == 0)) || in_parallel build_module "${wanted[@]}"
}
level UTF8Text CommandOptions || exit 2
level SnapshotCodec SystemCalls TOML Bookmarks || exit 2
level ProcFS || exit 2
level BarCore HistoryRecords PrometheusText BudgetFile ConfigImport || exit 2
in_parallel build_target "${targets[@]}" || exit 2
((build_only)) && exit 0

# A trap goes straight to libFuzzer's handler (the stack and the saved input), not to
# Swift's backtracer, which ASan breaks.
export SWIFT_BACKTRACE=enable=no
failed=()
for t in "${targets[@]}"; do
    work=$build/corpus-work/$t
    artifacts=$build/artifacts/$t
    log=$build/logs/$t.log
    mkdir -p "$work" "$artifacts"
    options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len_of "$t")"
             -print_final_stats=1 -artifact_prefix="$artifacts/" -seed="${FUZZ_SEED:-0}")
    [[ -f Fuzz/dict/$t.dict ]] && options+=(-dict="Fuzz/dict/$t.dict")
    marker=$(mktemp)
    status=0
    # The work directory first: libFuzzer adds new inputs to the first directory only.
    nice -n 10 "$build/bin/$t" "${options[@]}" "$work" "Fuzz/corpus/$t" > "$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    echo "fuzz: $t: ${execs:-?} runs in ${seconds} s (${rate:-?}/s), corpus $(find "$work" -type f | wc -l) files"
    if ((status != 0)); then
        crash=$(find "$artifacts" -type f -newer "$marker" | head -n 1)
        grep -a -m 1 -E "fuzz property broken|ERROR: (AddressSanitizer|libFuzzer)" "$log" | sed 's/^/fuzz:   /' || true
        # A Swift trap: the failure and the source line under it.
        grep -a -m 1 -A 1 "Swift runtime failure" "$log" | sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in /fuzz:   /' || true
        echo "fuzz: $t FAILED (status $status): input saved in ${crash:-(none; see $log)}; log $log" >&2
        failed+=("$t")
    fi
    rm -f "$marker"
done
if ((${#failed[@]})); then
    echo "fuzz: failed: ${failed[*]} (reproduce: .build/fuzz/bin/TARGET FILE)" >&2
    exit 1
fi
