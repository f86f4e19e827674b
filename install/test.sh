#!/usr/bin/env bash
# The test command (README, `make test`, .ci/run): installs what is missing,
# builds the release programs (the end-to-end tests and memory budgets run
# them from .build/release), runs every test, then a short fuzzing smoke: each
# target in Fuzz/ for FUZZ_SMOKE_SECONDS (default 15) seconds, each counted as one
# test in the last line. Exit status 0 only when every test and every target passed.
set -euo pipefail
cd "$(dirname "$0")/.."

install/deps.sh
install/deps.sh --check-programs
swift build -c release

# The tests are XCTest; without --disable-swift-testing the run would close on
# Swift Testing's "0 tests" line. The last line sums up XCTest's totals and the
# fuzz targets'.
log=$(mktemp) fuzz_log=$(mktemp)
trap 'rm -f "$log" "$fuzz_log"' EXIT
status=0
swift test --disable-swift-testing 2>&1 | tee "$log" || status=$?
summary=$(grep -a -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -n 1 || true)

# The fuzzing smoke (docs/reliability.md): a crash or a broken property fails the run,
# and the saved input's path is in the output.
fuzz_status=0
FUZZ_SEED=${FUZZ_SEED:-1} Fuzz/run.sh --seconds "${FUZZ_SMOKE_SECONDS:-15}" 2>&1 | tee "$fuzz_log" || fuzz_status=$?
fuzz_total=$(grep -c -E "^fuzz: [a-z0-9-]+: .* runs in" "$fuzz_log" || true)
fuzz_failed=$(grep -c -E "^fuzz: [a-z0-9-]+ FAILED" "$fuzz_log" || true)
if ((fuzz_status != 0)); then
    ((status != 0)) || status=$fuzz_status
    # A failed build runs no target: count every target as failed.
    ((fuzz_failed > 0)) || { fuzz_total=$(Fuzz/run.sh --list | wc -l); fuzz_failed=$fuzz_total; }
fi

if [[ $summary =~ Executed\ ([0-9]+)\ tests?,\ with\ ([0-9]+)\ failure ]]; then
    total=$((BASH_REMATCH[1] + fuzz_total)) failed=$((BASH_REMATCH[2] + fuzz_failed))
    echo "$((total - failed)) passed, $failed failed"
fi
exit "$status"
