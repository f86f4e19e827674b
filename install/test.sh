#!/usr/bin/env bash
# The test command (README, `make test`, .ci/run):
#   install/test.sh          everything, as CI runs it: installs what is missing, checks the
#                            size rule (scripts/sizes.py), builds the
#                            release programs (the end-to-end tests and memory budgets run them
#                            from .build/release), runs every XCTest case, the memory budgets,
#                            a short fuzzing smoke (each target in Fuzz/ for FUZZ_SMOKE_SECONDS,
#                            default 6, two at a time, each one test in the last line), then
#                            the release artefacts (install/package.sh) checked in a clean Debian
#                            root (install/test-package.sh) and the tarball's install.sh beside a
#                            user's files (install/test-install-script.sh), each check one test.
#   install/test.sh --quick  the edit-test loop: the debug build and the unit and in-process
#                            tests only (no release build, end-to-end tests, budgets, fuzzing
#                            or packages).
# The XCTest cases run in two shards at once (the 2 cores): the bar's end-to-end tests
# (X servers, real bars) in one, the rest in the other; each shard runs its classes one
# after another; the few classes that watch the whole machine run after them, alone. The
# fuzz build, the fuzzing smoke and the packages' checks run beside the shards (not beside
# those few). The output ends with the seconds of each stage and the ten slowest test
# classes, then `N passed, M failed`. Exit status 0 only when every test, budget, target
# and check passed.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
case ${1:-} in
    --quick) quick=1 ;;
    "") ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: unknown option $1 (install/test.sh [--quick])" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# stage NAME COMMAND...: runs COMMAND and keeps its seconds for the summary (in a file: a
# stage that feeds a pipe runs in a subshell).
stage() {
    local name=$1 started=$SECONDS rc=0
    shift
    "$@" || rc=$?
    printf 'stage: %-16s %5d s\n' "$name" $((SECONDS - started)) >> "$work/stages"
    return "$rc"
}

status=0
stage deps bash -c 'install/deps.sh && install/deps.sh --check-programs'
# The size rule (docs/architecture.md, "Small units"): no Sources file over 400 lines, no
# function over 80. One check in the closing count.
sizes_failed=0
stage sizes python3 scripts/sizes.py || { sizes_failed=1; status=1; }
# The codec and TOML compiled as Embedded Swift with warnings as errors (the package's
# builds leave Embedded's restrictions and Sendable conversions as warnings): one check,
# beside the test shards in the full run, before the builds in the quick one.
embedded_failed=0
embedded_checks() { nice -n 10 sh scripts/check-embedded-codec.sh && nice -n 10 sh scripts/check-embedded-toml.sh; }
if ((quick)); then stage "embedded checks" embedded_checks || { embedded_failed=1; status=1; }; fi
# The tests' debug build has a scratch folder of its own, so that it and the release build
# (in .build, where the end-to-end tests, the budgets and the packages find the programs)
# run side by side: each leaves the other's idle core time to it. The packages both resolve
# are resolved first, one after the other (Package.resolved is written once).
tests_scratch=.build-tests
if ((!quick)); then
    swift package resolve
    swift package --scratch-path "$tests_scratch" resolve
    # Every target in one build, the test-only BarRuntime compiled as normal Swift included:
    # one product at a time left a core idle through each product's chain of whole-module
    # compiles (docs/performance.md, "The test command").
    release_build() { swift build -c release; }
    { rc=0; stage "release build" release_build > "$work/release.log" 2>&1 || rc=$?; echo "$rc" > "$work/release.status"; } &
    release_pid=$!
fi
debug_status=0
# Beside the release build, which compiles the programs, the debug build makes only the test
# bundle and what it imports, and the NVIDIA helper the in-process GPU tests start from beside
# the bundle: the programs and their Embedded twins would be half of its work for nothing (the
# end-to-end tests run the release programs). The quick run, which has no release build,
# builds everything, so that an edit that breaks a program shows there.
debug_build() {
    if ((quick)); then
        swift build --build-tests --scratch-path "$tests_scratch"
    else
        swift build --product sysstatsPackageTests --scratch-path "$tests_scratch" &&
            swift build --product sysstatsd-gpu --scratch-path "$tests_scratch"
    fi
}
stage "debug build" debug_build || debug_status=$?
if ((!quick)); then
    wait "$release_pid" || true
    cat "$work/release.log"
    release_status=$(<"$work/release.status")
    ((release_status == 0)) || { echo "test.sh: the release build failed (above)" >&2; exit "$release_status"; }
fi
((debug_status == 0)) || { echo "test.sh: the debug build failed (above)" >&2; exit "$debug_status"; }

# The XCTest cases, by class, in two shards run side by side; the bar's end-to-end tests
# (BarEndToEndTests) are one shard (they start X servers and bars, one at a time), every
# other class the other. The bundle is run as `swift test` runs it (two `swift test` at once
# would wait for each other's lock on the scratch folder), so its closing lines are XCTest's.
xctest=$(swift build --scratch-path "$tests_scratch" --show-bin-path)/sysstatsPackageTests.xctest
"$xctest" --list-tests 2>/dev/null | sed -n 's|^\([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u > "$work/listed"
# Classes that watch the whole machine (the real /proc's new processes, its memory pressure):
# the other shard's children would be theirs too, so they run after the shards, alone.
alone='^(ProcFSTests\.ProcessTableProbeTests|ProcFSTests\.ProcessTableChangeTests|SamplerTests\.PressureTriggerTests)$'
grep -E "$alone" "$work/listed" > "$work/shard-alone" || true
grep -v -E "$alone" "$work/listed" > "$work/classes" || true
if ((quick)); then
    grep -v -E '^(EndToEndTests|BarEndToEndTests)\.' "$work/classes" > "$work/all" || true
    # Alternate classes between the shards.
    awk 'NR % 2 == 1' "$work/all" > "$work/shard-a"
    awk 'NR % 2 == 0' "$work/all" > "$work/shard-b"
else
    # Bar end-to-end classes that start no display or bar the others could meet (gdb counts
    # a bar's allocations) run in the other shard, which would otherwise end first.
    elsewhere='^BarEndToEndTests\.BarAllocationTests$'
    grep -E '^BarEndToEndTests\.' "$work/classes" | grep -v -E "$elsewhere" > "$work/shard-a" || true
    grep -v -E '^BarEndToEndTests\.' "$work/classes" > "$work/shard-b" || true
    grep -E "$elsewhere" "$work/classes" >> "$work/shard-b" || true
fi
run_shard() {   # SHARD: its classes, comma-joined, as the bundle's filter; 0 or 1
    local list
    list=$(paste -s -d, "$work/$1")
    [[ -n $list ]] || { echo "Test Suite 'Selected tests' passed"; echo "	 Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds"; return 0; }
    "$xctest" "$list"
}
run_tests() {
    echo "tests: $(wc -l < "$work/shard-a") and $(wc -l < "$work/shard-b") classes in two shards side by side, then $(wc -l < "$work/shard-alone") alone"
    local a=0 b=0 c=0
    run_shard shard-a > "$work/tests-a.log" 2>&1 & local pid_a=$!
    run_shard shard-b > "$work/tests-b.log" 2>&1 & local pid_b=$!
    wait "$pid_a" || a=$?
    wait "$pid_b" || b=$?
    cat "$work/tests-a.log" "$work/tests-b.log"
    # The classes alone watch the machine's new processes: what runs beside the shards (the
    # fuzz build, the packages) has ended first.
    local marker
    for marker in "${beside[@]}"; do
        while [[ ! -f $marker ]]; do sleep 1; done
    done
    run_shard shard-alone || c=$?
    ((a == 0 && b == 0 && c == 0))
}
# Stages that run beside the test shards, each leaving its status in a file when it ends.
beside=()
if ((!quick)); then
    # The fuzz targets build beside the tests (Fuzz/run.sh compiles at nice 10), then the
    # fuzzing smoke runs there too (docs/reliability.md), at nice 19 (run.sh's own 10 on top
    # of this 10): the tests spend much of their time waiting on the programs they run, and a
    # target replays its corpus whole and then runs for its seconds however busy the machine is. Every target built once, then run two at a time; a crash or a
    # broken property fails the run, and the saved input's path is in the output.
    fuzz_runs() {
        local targets=() half a=0 b=0
        mapfile -t targets < <(Fuzz/run.sh --list)
        half=$(((${#targets[@]} + 1) / 2))
        FUZZ_SEED=${FUZZ_SEED:-1} nice -n 10 Fuzz/run.sh --seconds "${FUZZ_SMOKE_SECONDS:-6}" "${targets[@]:0:half}" > "$work/fuzz-a.log" 2>&1 & local pa=$!
        FUZZ_SEED=${FUZZ_SEED:-1} nice -n 10 Fuzz/run.sh --seconds "${FUZZ_SMOKE_SECONDS:-6}" "${targets[@]:half}" > "$work/fuzz-b.log" 2>&1 & local pb=$!
        wait "$pa" || a=$?
        wait "$pb" || b=$?
        cat "$work/fuzz-a.log" "$work/fuzz-b.log"
        ((a == 0 && b == 0))
    }
    {
        rc=0; stage "fuzz build" Fuzz/run.sh --build-only > "$work/fuzz-build.log" 2>&1 || rc=$?; echo "$rc" > "$work/fuzz-build.status"
        runs=$rc
        if ((rc == 0)); then runs=0; stage "fuzz runs" fuzz_runs > "$work/fuzz.log" 2>&1 || runs=$?; fi
        echo "$runs" > "$work/fuzz-runs.status"
    } &
    beside+=("$work/fuzz-runs.status")
    # The release artefacts (docs/packaging.md), from the release programs above: installed,
    # run and removed in a clean Debian root, each check one test; then the tarball's
    # install.sh beside a user's own files (the uninstall keeps them). Beside the tests too.
    packages() {
        local rc=0
        { install/package.sh --bin-dir "$(swift build -c release --show-bin-path)" && install/test-package.sh; } || rc=$?
        install/test-install-script.sh || rc=$?
        return "$rc"
    }
    { rc=0; stage packages packages > "$work/packages.log" 2>&1 || rc=$?; echo "$rc" > "$work/packages.status"; } &
    beside+=("$work/packages.status")
    { rc=0; stage "embedded checks" embedded_checks > "$work/embedded.log" 2>&1 || rc=$?; echo "$rc" > "$work/embedded.status"; } &
    beside+=("$work/embedded.status")
fi
xctest_status=0
stage "XCTest" run_tests 2>&1 | tee "$work/tests.log" || xctest_status=$?
((xctest_status == 0)) || status=$xctest_status
# Each shard's own total ("Selected tests"; the two and the one alone), summed.
read -r xctest_total xctest_failed < <(
    awk '/^Test Suite .Selected tests. (passed|failed)/ {getline; if (match($0, /Executed [0-9]+ tests?, with [0-9]+ failures?/)) {
             split(substr($0, RSTART, RLENGTH), w, " "); t += w[2]; f += w[5]; n += 1 } }
         END { if (n == 3) print t + 0, f + 0; else print -1, -1 }' "$work/tests.log")
if ((xctest_total < 0)); then
    # A shard that crashed printed no total: count it as one failure.
    echo "failed: a test shard ended without its totals (a crash?); see above"
    xctest_total=$((xctest_total < 0 ? 1 : xctest_total)) xctest_failed=1
    ((status != 0)) || status=1
fi

budget_total=0 budget_failed=0 fuzz_total=0 fuzz_failed=0 package_total=0 package_failed=0
if ((!quick)); then
    cat "$work/embedded.log"
    [[ $(<"$work/embedded.status") == 0 ]] || { embedded_failed=1; status=1; }
    # The memory budgets (docs/budgets.md): the release programs measured by the release
    # `sysstats budget check`, one line per budget ("ok   NAME: …", "FAIL NAME: …", or
    # "ERROR NAME: …" for one that could not be measured).
    budget_status=0
    stage budgets "$(swift build -c release --show-bin-path)/sysstats" budget check sysstats-budget.toml 2>&1 \
        | tee "$work/budgets.log" || budget_status=$?
    budget_total=$(grep -c -E "^(ok   |FAIL |ERROR )" "$work/budgets.log" || true)
    budget_failed=$(grep -c -E "^(FAIL |ERROR )" "$work/budgets.log" || true)
    if ((budget_status != 0)); then
        ((status != 0)) || status=$budget_status
        # A file that could not be used (status 2) checks nothing: one failure.
        ((budget_failed > 0)) || { budget_total=$((budget_total + 1)) budget_failed=1; }
    fi

    # The fuzzing smoke (run beside the tests, above).
    cat "$work/fuzz-build.log"
    fuzz_status=$(<"$work/fuzz-runs.status")
    [[ ! -f $work/fuzz.log ]] || cat "$work/fuzz.log"
    fuzz_total=$(grep -c -E "^fuzz: [a-z0-9-]+: .* runs in" "$work/fuzz.log" 2>/dev/null || true)
    fuzz_failed=$(grep -c -E "^fuzz: [a-z0-9-]+ FAILED" "$work/fuzz.log" 2>/dev/null || true)
    if ((fuzz_status != 0)); then
        ((status != 0)) || status=$fuzz_status
        # A failed build runs no target: count every target as failed.
        ((fuzz_failed > 0)) || { fuzz_total=$(Fuzz/run.sh --list | wc -l); fuzz_failed=$fuzz_total; }
    fi

    # The packages' checks (run beside the tests, above).
    package_status=$(<"$work/packages.status")
    cat "$work/packages.log"
    package_total=$(grep -c -E "^package-test: .*(: ok| FAILED: )" "$work/packages.log" || true)
    package_failed=$(grep -c -E "^package-test: .* FAILED: " "$work/packages.log" || true)
    if ((package_status != 0)); then
        ((status != 0)) || status=$package_status
        # Packaging that stopped before its checks (package.sh failed, no root): one failure.
        ((package_failed > 0)) || { echo "package-test: packaging FAILED (see above)"; package_total=$((package_total + 1)) package_failed=1; }
    fi
fi

# Where the time went: each stage, then the ten slowest test classes (XCTest's own figure).
# (No `head` in these pipes: under pipefail, a writer it cut short by SIGPIPE would end the
# script before its closing line.)
cat "$work/stages"
awk '/^Test Suite .[A-Za-z0-9_]+. (passed|failed) at/ { name = $3; gsub("\047", "", name); getline
         if (match($0, /in [0-9.]+ \(/)) { s = substr($0, RSTART + 3, RLENGTH - 5); if (name != "Selected" && name !~ /\.xctest$/) print s, name } }' \
    "$work/tests.log" | sort -rn | awk 'NR <= 10 {printf "slowest: %-40s %7.1f s\n", $2, $1}'

# A CI page shows the output's tail: name the failed tests and their assertions there too.
grep -a -E "^Test Case '.*' failed|^/.*: error: " "$work/tests.log" | awk 'NR <= 40 {print "failed: " $0}' || true
[[ -f $work/budgets.log ]] && { grep -a -E "^(FAIL |ERROR )" "$work/budgets.log" | sed 's/^/failed: /' || true; }

total=$((2 + xctest_total + budget_total + fuzz_total + package_total))
failed=$((sizes_failed + embedded_failed + xctest_failed + budget_failed + fuzz_failed + package_failed))
echo "$((total - failed)) passed, $failed failed"
exit "$status"
