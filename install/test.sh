#!/usr/bin/env bash
# The test command (README, `make test`, .ci/run): installs what is missing,
# builds the release programs (the end-to-end tests and memory budgets run
# them from .build/release), runs every test, then a short fuzzing smoke: each
# target in Fuzz/ for FUZZ_SMOKE_SECONDS (default 15) seconds, each counted as one
# test in the last line, then the release artefacts (install/package.sh) checked in a
# clean Debian root (install/test-package.sh), each check one test. Exit status 0 only
# when every test, every target and every check passed.
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

# The memory budgets (docs/budgets.md): the release programs measured by the release
# `sysstats budget check`, one line per budget ("ok   NAME: …" or "FAIL NAME: …").
budget_log=$(mktemp)
trap 'rm -f "$log" "$fuzz_log" "$budget_log"' EXIT
budget_status=0
"$(swift build -c release --show-bin-path)/sysstats" budget check sysstats-budget.toml 2>&1 | tee "$budget_log" || budget_status=$?
budget_total=$(grep -c -E "^(ok   |FAIL )" "$budget_log" || true)
budget_failed=$(grep -c -E "^FAIL " "$budget_log" || true)
if ((budget_status != 0)); then
    ((status != 0)) || status=$budget_status
    # A file that could not be used (status 2) checks nothing: one failure.
    ((budget_failed > 0)) || { budget_total=$((budget_total + 1)) budget_failed=1; }
fi

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

# The release artefacts (docs/packaging.md): built from the release programs above, then
# installed, run and removed in a clean Debian root; each check counts as one test.
package_log=$(mktemp)
trap 'rm -f "$log" "$fuzz_log" "$budget_log" "$package_log"' EXIT
package_status=0
{ install/package.sh --bin-dir "$(swift build -c release --show-bin-path)" && install/test-package.sh; } 2>&1 \
    | tee "$package_log" || package_status=$?
# The tarball's install.sh beside a user's own files (the uninstall keeps them).
install/test-install-script.sh 2>&1 | tee -a "$package_log" || package_status=$?
package_total=$(grep -c -E "^package-test: .*(: ok| FAILED: )" "$package_log" || true)
package_failed=$(grep -c -E "^package-test: .* FAILED: " "$package_log" || true)
if ((package_status != 0)); then
    ((status != 0)) || status=$package_status
    # Packaging that stopped before its checks (package.sh failed, no root): one failure.
    ((package_failed > 0)) || { echo "package-test: packaging FAILED (see above)"; package_total=$((package_total + 1)) package_failed=1; }
fi

# A CI page shows the output's tail: name the failed tests and their assertions there too.
grep -a -E "^Test Case '.*' failed|^/.*: error: " "$log" | head -n 40 | sed 's/^/failed: /' || true
grep -a -E "^FAIL " "$budget_log" | sed 's/^/failed: /' || true

if [[ $summary =~ Executed\ ([0-9]+)\ tests?,\ with\ ([0-9]+)\ failure ]]; then
    total=$((BASH_REMATCH[1] + budget_total + fuzz_total + package_total))
    failed=$((BASH_REMATCH[2] + budget_failed + fuzz_failed + package_failed))
    echo "$((total - failed)) passed, $failed failed"
fi
exit "$status"
