#!/usr/bin/env bash
# The test command (README, `make test`, .ci/run): installs what is missing,
# builds the release programs (the end-to-end tests and memory budgets run
# them from .build/release), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

install/deps.sh
swift build -c release
swift test
