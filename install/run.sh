#!/usr/bin/env bash
# The run command (README, `make run`): build the release programs, start sysstatsd in the background and
# show a live status line (`sysstats report --watch`) until Ctrl-C, which also
# stops the sampler.
set -euo pipefail
cd "$(dirname "$0")/.."

install/deps.sh --build
swift build -c release
bin=$(swift build -c release --show-bin-path)

sampler=
stop() {
    if [[ -n $sampler ]] && kill -0 "$sampler" 2>/dev/null; then
        kill "$sampler" 2>/dev/null || true
        wait "$sampler" 2>/dev/null || true
    fi
}
trap stop EXIT
trap 'exit 0' INT TERM

"$bin/sysstatsd" &
sampler=$!
echo "sysstatsd running (pid $sampler); Ctrl-C stops it and this status line."
"$bin/sysstats" report --watch
