#!/usr/bin/env bash
# The test command (README, `make test`, .ci/run): installs what is missing,
# builds the release programs (the end-to-end tests and memory budgets run
# them from .build/release), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

install/deps.sh
swift build -c release

# The tests are XCTest; without --disable-swift-testing the run would close on
# Swift Testing's "0 tests" line. The last line sums up XCTest's totals.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --disable-swift-testing 2>&1 | tee "$log" || status=$?
summary=$(grep -a -E "^[[:space:]]*Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -n 1 || true)
if [[ $summary =~ Executed\ ([0-9]+)\ tests?,\ with\ ([0-9]+)\ failure ]]; then
    total=${BASH_REMATCH[1]} failed=${BASH_REMATCH[2]}
    echo "$((total - failed)) passed, $failed failed"
fi
exit "$status"
