#!/usr/bin/env bash
# Makes this folder's fixtures with the 0.1.0 programs, for install/test-package.sh's upgrade
# checks: the data a 0.1.0 user has when the new package comes.
#   history.sqlite  what 0.1.0's sysstatsd (through its sysstatsd-history) wrote: the boot, a
#                   minute's rows and the built-in bookmarks, checkpointed by its clean stop
#   boot_id         the boot that database records (the machine's that made it)
#   snapshot        the last snapshot of that 0.1.0 sampler, as it is left in place while the
#                   new package installs (the sampler still running)
#   config.toml     the config file 0.1.0's install/install.sh put in place (its assets/config.toml)
# usage: Tests/Fixtures/upgrade-0.1.0/make-fixtures.sh [COMMIT]   (default a2dc0ea, 0.1.0's last)
#        BIN_DIR=DIR: the release programs of COMMIT are already built there
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
commit=${1:-a2dc0ea}
work=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$work/src" 2>/dev/null || true; rm -rf "$work"' EXIT

bin=${BIN_DIR:-}
if [[ -z $bin ]]; then
    git -C "$here" worktree add --detach "$work/src" "$commit" >/dev/null
    (cd "$work/src" && swift build -c release --product sysstatsd >/dev/null && swift build -c release --product sysstatsd-history >/dev/null)
    bin=$work/src/.build/release
fi
[[ $("$bin/sysstatsd" --version) == "sysstatsd 0.1.0" ]] || { echo "make-fixtures: $commit is not 0.1.0" >&2; exit 1; }

install -d -m 0700 "$work/run" "$work/data"
"$bin/sysstatsd" --interval 0.5 --runtime-dir "$work/run" --data-dir "$work/data" &
sampler=$!
sleep 3
kill -TERM "$sampler"
wait "$sampler"
[[ ! -s $work/data/history.sqlite-wal ]] || { echo "make-fixtures: the database was left with a WAL" >&2; exit 1; }

install -m 0644 "$work/data/history.sqlite" "$here/history.sqlite"
install -m 0644 "$work/run/snapshot" "$here/snapshot"
cat /proc/sys/kernel/random/boot_id > "$here/boot_id"
git -C "$here" show "$commit:assets/config.toml" > "$here/config.toml"
echo "make-fixtures: history.sqlite, snapshot, boot_id and config.toml from $commit"
