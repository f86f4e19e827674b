#!/usr/bin/env bash
# Records golden.json: what i3blocks 1.5 shows for blocklets.conf after the clicks in
# `clicks` and one SIGRTMIN+10 (its last i3bar array). Debian packages 1.4, which differs on these points; 1.5
# builds from its source in one compiler call:
#   git clone https://github.com/vivien/i3blocks && git -C i3blocks checkout 1.5
#   Tests/Fixtures/i3blocks-1.5/record.sh i3blocks
set -euo pipefail
src=${1:?usage: record.sh I3BLOCKS_1.5_SOURCE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$src" && gcc -O2 -o "$work/i3blocks" bar.c block.c config.c i3bar.c ini.c json.c line.c main.c map.c sys.c \
    -DSYSCONFDIR='"/etc"' -DPACKAGE_STRING='"i3blocks 1.5"')
"$work/i3blocks" -V | grep -q "i3blocks 1.5" || { echo "record.sh: not i3blocks 1.5" >&2; exit 1; }
# The clicks one by one, each after the blocks have run, then SIGRTMIN+10 for the signalled
# block; then time for the last runs.
mkfifo "$work/in"
(cd "$here" && exec "$work/i3blocks" -c blocklets.conf) < "$work/in" > "$work/out" 2>/dev/null &
pid=$!
exec 3> "$work/in"
sleep 1
while IFS= read -r line; do printf '%s\n' "$line" >&3; sleep 0.7; done < "$here/clicks"
kill -RTMIN+10 "$pid"
sleep 1.5
exec 3>&-; kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
grep '^,\[' "$work/out" | tail -n 1 | cut -c2- | python3 -c '
import json, sys
array = json.load(sys.stdin)
json.dump(array, sys.stdout, indent=1, sort_keys=True)
print()' > "$here/golden.json"
echo "record.sh: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$here/golden.json") blocks in golden.json"
