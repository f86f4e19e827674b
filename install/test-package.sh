#!/usr/bin/env bash
# Tests the release artefacts where no Swift exists: builds a minimal Debian root with
# mmdebstrap from the mirror this machine's apt uses, installs dist/'s .deb there with apt
# (so its Depends are resolved for real), runs the programs inside, removes it, then installs,
# runs and uninstalls the tarball in the same root (docs/packaging.md).
# Each check prints `package-test: NAME: ok` or `package-test: NAME FAILED: reason`; the last
# line is `package-test: N checks, M failed` (install/test.sh counts them). Exit 1 when one failed.
#
# usage: install/test-package.sh [--dist DIR]   (run install/package.sh first; needs root)
# The root is cached (pristine) outside the checkout, in $SYSSTATS_PACKAGE_TEST_CACHE (default
# ~/.cache/sysstats/package-test), so that a fresh clone on the same machine reuses it; it is
# built again when missing, when the suite, mirror or package list changed, or on a new day
# (its package lists must match the mirror's); SYSSTATS_PACKAGE_TEST_FRESH=1 builds it again.
set -euo pipefail
cd "$(dirname "$0")/.."
source install/programs.sh
repo=$PWD

dist=dist
while (($# > 0)); do
    case $1 in
        --dist) dist=${2:?--dist needs a directory}; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "package-test: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

die() { printf 'package-test: %s\n' "$*" >&2; printf 'package-test: 1 checks, 1 failed\n'; exit 1; }
[[ $(id -u) -eq 0 ]] || die "setup FAILED: needs root (chroot and mounts in the test root)"
for tool in mmdebstrap unshare chroot python3 apt-cache lintian; do
    command -v "$tool" >/dev/null 2>&1 || die "setup FAILED: $tool is missing (install/deps.sh installs it)"
done

# Mounts made inside the test root (/proc, /sys) belong to a mount namespace of this run
# alone: they go when it ends, whatever way it ends.
# The outer run keeps the work folder and removes it once the namespace, and so every mount
# in it, is gone.
if [[ -z ${SYSSTATS_PACKAGE_TEST_WORK:-} ]]; then
    work=$(mktemp -d /tmp/sysstats-package-test.XXXXXX)
    status=0
    unshare --mount --propagation private env SYSSTATS_PACKAGE_TEST_WORK="$work" "$0" --dist "$dist" || status=$?
    rm -rf --one-file-system "$work"
    exit "$status"
fi
work=$SYSSTATS_PACKAGE_TEST_WORK

shopt -s nullglob
debs=("$dist"/sysstats_*_"$(dpkg --print-architecture)".deb)
tarballs=("$dist"/sysstats-*-"$(dpkg --print-architecture)"-linux.tar.gz)
((${#debs[@]} == 1 && ${#tarballs[@]} == 1)) || die "setup FAILED: want one .deb and one tarball in $dist (install/package.sh makes them); found ${#debs[@]} and ${#tarballs[@]}"
deb=${debs[0]} tarball=${tarballs[0]}
version=${deb##*/sysstats_} version=${version%%_*}

# The clean root: Debian's essential packages and apt, plus what the checks use (man-db for
# man -w, bash-completion, systemd for systemd-analyze). The suite and the mirror are this
# machine's own.
. /etc/os-release
suite=${VERSION_CODENAME:?/etc/os-release names no VERSION_CODENAME}
mirror=$(apt-cache policy | awk -v suite="$suite" '$1 ~ /^[0-9]+$/ && $3 == suite "/main" {print $2; exit}')
[[ -n $mirror ]] || die "setup FAILED: apt knows no mirror for $suite/main (apt-cache policy)"
includes=man-db,bash-completion,systemd
cache=${SYSSTATS_PACKAGE_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sysstats/package-test}
stamp="$suite $mirror $includes $(date -u +%F)"
if [[ -n ${SYSSTATS_PACKAGE_TEST_FRESH:-} || ! -f $cache/root.stamp || $(<"$cache/root.stamp") != "$stamp" ]]; then
    rm -rf --one-file-system "$cache"
    mkdir -p "$cache"
    started=$SECONDS
    # The package lists stay, so that apt in the root resolves the .deb's Depends.
    mmdebstrap --quiet --variant=apt --include="$includes" --skip=cleanup/apt/lists \
        "$suite" "$cache/root" "$mirror" > "$cache/mmdebstrap.log" 2>&1 \
        || die "setup FAILED: mmdebstrap $suite from $mirror failed; see $cache/mmdebstrap.log"
    printf '%s' "$stamp" > "$cache/root.stamp"
    printf 'package-test: built the clean %s root from %s in %d s\n' "$suite" "$mirror" $((SECONDS - started))
fi

root=$work/root
cp -a "$cache/root" "$root"
# The root reaches the mirror as this machine does.
cp /etc/hosts /etc/resolv.conf "$root/etc/"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
install -d -m 0700 "$root/run/user/0"

# A command inside the root as a user's session sees it; $home and $extra_path set per part.
home=/root extra_path=
root_command() {
    root_cmd=(chroot "$root" /usr/bin/env -i HOME="$home" XDG_RUNTIME_DIR=/run/user/0 LANG=C.UTF-8
              PATH="${extra_path:+$extra_path:}/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")
}
in_root() { root_command; "${root_cmd[@]}" "$@"; }
# Whatever still runs in the root when the run ends (a check cut short) is ended with it.
stop_root_processes() {
    local link pid
    for link in /proc/[0-9]*/root; do
        [[ $(readlink "$link" 2>/dev/null) == "$root"* ]] || continue
        pid=${link#/proc/} pid=${pid%/root}
        kill -KILL "$pid" 2>/dev/null || true
    done
}
trap stop_root_processes EXIT

check_prefix="package-test: "
. "$repo/install/check.sh"

# i3bar's protocol: a header object and "[" when streaming, then arrays of blocks, one a line
# (--once prints just the one array).
valid_i3bar() {
    python3 -c '
import json, sys
lines = [l.strip() for l in sys.stdin.read().splitlines() if l.strip()]
if lines and lines[0].startswith("{"):
    assert json.loads(lines[0])["version"] == 1, lines[0]
    assert lines[1] == "[", lines[1]
    lines = lines[2:]
rows = [json.loads(l.lstrip(",").rstrip(",")) for l in lines]
assert rows and all(isinstance(r, list) and r and all("full_text" in b for b in r) for r in rows), rows
'
}
valid_report() { python3 -c 'import json, sys; r = json.load(sys.stdin); assert "cpu_percent" in r and "memory_mib" in r, r'; }

# --- the checks, for a .deb or a tarball install whose programs are in $1 ---------------

check_versions() {
    local p out
    for p in "${programs[@]}"; do
        out=$(in_root "$1/$p" --version) || fail "$p --version failed: $out"
        [[ $out == "$p $version" ]] || fail "$p --version printed '$out', not '$p $version'"
    done
}
check_libraries() {
    local p out
    for p in "${programs[@]}"; do
        out=$(in_root ldd "$1/$p" 2>&1) || [[ $out == *"not a dynamic executable"* ]] || fail "ldd $p: $out"
        ! grep -q 'not found' <<< "$out" || fail "$p: $(grep 'not found' <<< "$out" | tr '\n' ' ')"
        if awk '$3 ~ /^\// && $3 !~ /^\/(usr\/)?lib(64)?\// {bad = 1} END {exit !bad}' <<< "$out"; then
            fail "$p links outside /lib and /usr/lib: $out"
        fi
    done
}
check_no_swift() {
    ! in_root sh -c 'command -v swift swiftc' || fail "a swift program is on the root's PATH"
    local found
    found=$(find "$root" -xdev \( -name 'libswiftCore*' -o -name 'libFoundation*' \) -print -quit)
    [[ -z $found ]] || fail "the root has ${found#"$root"}"
}
check_sampler_once() {
    rm -rf "$root/run/user/0/sysstats"
    in_root "$1/sysstatsd" --once --no-history || fail "sysstatsd --once failed"
    [[ -s $root/run/user/0/sysstats/snapshot ]] || fail "no snapshot in /run/user/0/sysstats"
}
check_report() { in_root "$1/sysstats" report --json | valid_report; }
# measure forks its command from sysstats-spawn, found beside sysstats.
check_measure() {
    in_root "$1/sysstats" measure --json --no-cgroup -- /bin/true 2>&1 >/dev/null \
        | python3 -c 'import json, sys; r = json.load(sys.stdin); assert r["command_from_spawn_helper"] and r["exact_peak_rss"] > 0, r'
}
check_bar() { in_root "$1/sysstats-bar" --once --output i3bar --no-start-sampler | valid_i3bar; }
check_manual() {
    local p out
    for p in "${programs[@]}"; do
        # The helpers' pages are links to their callers', which man -w names.
        out=$(in_root man -w "$p") || fail "man -w $p found no page"
        [[ $out == "$2"/man1/sysstats*.1.gz && -f $root$out ]] || fail "man -w $p: $out, not a page in $2/man1"
    done
    out=$(in_root man -w 5 sysstats-config) || fail "man -w 5 sysstats-config found no page"
    [[ $out == "$2"/man5/sysstats-config.5.gz && -f $root$out ]] || fail "man -w 5 sysstats-config: $out, not $2/man5/sysstats-config.5.gz"
}
# Loaded as bash-completion loads it on first use of the command: from where that looks.
check_completion() {
    in_root bash -c 'source /usr/share/bash-completion/bash_completion
        for p in sysstats sysstatsd sysstats-bar; do
            _completion_loader "$p" 2>/dev/null
            spec=$(complete -p "$p" 2>/dev/null) || { echo "no completion for $p"; exit 1; }
            [[ $spec != *" _minimal "* ]] || { echo "no completion file for $p (bash-completion fell back to _minimal)"; exit 1; }
        done'
}
check_unit() {
    local out
    grep -qx "ExecStart=$1/sysstatsd --data-dir %h/.local/share/sysstats" "$root$2" || fail "$2: $(grep '^ExecStart=' "$root$2")"
    out=$(in_root systemd-analyze verify --user "$2" 2>&1) || fail "systemd-analyze verify: $out"
    [[ -z $out ]] || fail "systemd-analyze verify warns: $out"
}
# The sampler hands its rows to sysstatsd-history at its clean stop: run it, stop it, read.
check_history() {
    local pid
    root_command
    # Started as a simple command, so that $! is the sampler itself (chroot and env exec).
    "${root_cmd[@]}" "$1/sysstatsd" --interval 0.5 > "$work/sampler.log" 2>&1 &
    pid=$!
    sleep 3
    kill -TERM "$pid"
    wait "$pid" || fail "sysstatsd ended with status $?: $(<"$work/sampler.log")"
    [[ -s $root$home/.local/share/sysstats/history.sqlite ]] || fail "no history.sqlite after the sampler's stop: $(<"$work/sampler.log")"
    in_root "$1/sysstats" history --json --since 1h | python3 -c '
import json, sys; h = json.load(sys.stdin); assert h, h'
    in_root "$1/sysstats" reboots --json | python3 -c '
import json, sys; r = json.load(sys.stdin); assert r, r'
}

# A user's session running through an upgrade and a removal (docs/packaging.md, "Upgrades
# and removal"): a sampler and a bar started before it, each looking at its own file every
# 200 ms here (SYSSTATS_PROGRAM_CHECK_MS; at each minute's turn in a session).
start_session() {
    rm -rf "$root/run/user/0/sysstats"
    root_command
    # Simple commands, so that $! is the program itself (chroot and env exec).
    "${root_cmd[@]}" SYSSTATS_PROGRAM_CHECK_MS=200 "$1/sysstatsd" --interval 0.5 --no-history > "$work/session-sampler.log" 2>&1 &
    session_sampler=$!
    "${root_cmd[@]}" SYSSTATS_PROGRAM_CHECK_MS=200 "$1/sysstats-bar" --output i3bar --no-start-sampler \
        < /dev/null > "$work/session-bar.out" 2> "$work/session-bar.log" &
    session_bar=$!
    trap stop_session EXIT
    sleep 2
    kill -0 "$session_sampler" 2>/dev/null || fail "the sampler did not start: $(<"$work/session-sampler.log")"
    kill -0 "$session_bar" 2>/dev/null || fail "the bar did not start: $(<"$work/session-bar.log")"
}
stop_session() {
    kill -TERM "$session_sampler" "$session_bar" 2>/dev/null || true
    wait "$session_sampler" "$session_bar" 2>/dev/null || true
}
# Waits up to 30 s for FILE to hold TEXT (a change is acted on once it has settled, 5-10 s).
wait_for_line() {
    local i
    for ((i = 0; i < 150; i++)); do grep -qF -- "$2" "$1" && return 0; sleep 0.2; done
    return 1
}
# check_session_upgrade BIN COMMAND...: both start again from the new files in place.
check_session_upgrade() {
    local bin=$1
    shift
    start_session "$bin"
    "$@" > "$work/upgrade.log" 2>&1 || fail "the upgrade failed: $(tail -n 3 "$work/upgrade.log")"
    wait_for_line "$work/session-sampler.log" "was replaced (an upgrade?); starting again from the new program" ||
        fail "the sampler did not say it starts again: $(tail -n 3 "$work/session-sampler.log")"
    wait_for_line "$work/session-bar.log" "was replaced (an upgrade?): starting again from the new program" ||
        fail "the bar did not say it starts again: $(tail -n 3 "$work/session-bar.log")"
    sleep 1
    kill -0 "$session_sampler" 2>/dev/null || fail "the sampler ended: $(tail -n 3 "$work/session-sampler.log")"
    kill -0 "$session_bar" 2>/dev/null || fail "the bar ended: $(tail -n 3 "$work/session-bar.log")"
    [[ $(readlink "/proc/$session_sampler/exe") != *" (deleted)" ]] || fail "the sampler runs on from the deleted file"
    [[ $(readlink "/proc/$session_bar/exe") != *" (deleted)" ]] || fail "the bar runs on from the deleted file"
    tail -n 1 "$work/session-bar.out" | valid_i3bar || fail "the bar's stream after the upgrade: $(tail -n 2 "$work/session-bar.out")"
}
# check_session_removal BIN COMMAND...: both say so; the bar shows the figures on, and the
# sampler ends once the bar is closed.
check_session_removal() {
    local bin=$1
    shift
    start_session "$bin"
    "$@" > "$work/removal.log" 2>&1 || fail "the removal failed: $(tail -n 3 "$work/removal.log")"
    wait_for_line "$work/session-sampler.log" "was removed (its package uninstalled?)" ||
        fail "the sampler did not say its program was removed: $(tail -n 3 "$work/session-sampler.log")"
    wait_for_line "$work/session-bar.log" "was removed (its package uninstalled?): this bar shows the figures on until it is closed" ||
        fail "the bar did not say its program was removed: $(tail -n 3 "$work/session-bar.log")"
    kill -0 "$session_bar" 2>/dev/null || fail "the bar ended at the removal: $(tail -n 3 "$work/session-bar.log")"
    # The bar closed (the session's end), the sampler goes within a minute of it: nothing of
    # the removed package runs on.
    kill -TERM "$session_bar"
    wait "$session_bar" 2>/dev/null || true
    local i
    for ((i = 0; i < 90; i++)); do kill -0 "$session_sampler" 2>/dev/null || return 0; sleep 1; done
    fail "the sampler still runs 90 s after its last bar closed: $(tail -n 3 "$work/session-sampler.log")"
}

# Data of a 0.1.0 install (Tests/Fixtures/upgrade-0.1.0/README.md): the config and history a
# user has, and the snapshot of a 0.1.0 sampler that is still running during the upgrade.
fixtures=$repo/Tests/Fixtures/upgrade-0.1.0
place_old_data() {
    install -d -m 0700 "$root$home/.local/share/sysstats" "$root$home/.config/sysstats" "$root/run/sysstats-0.1.0"
    install -m 0600 "$fixtures/history.sqlite" "$root$home/.local/share/sysstats/history.sqlite"
    install -m 0644 "$fixtures/config.toml" "$root$home/.config/sysstats/config.toml"
    install -m 0600 "$fixtures/snapshot" "$root/run/sysstats-0.1.0/snapshot"
}
check_old_data() {
    in_root "$1/sysstats" config check > "$work/config-check" 2>&1 || fail "config check of the 0.1.0 config: $(<"$work/config-check")"
    cmp -s "$fixtures/config.toml" "$root$home/.config/sysstats/config.toml" || fail "the user's config.toml changed"
    in_root "$1/sysstats" reboots --json | python3 -c '
import json, sys
boots = json.load(sys.stdin)
assert any(b.get("boot_id") == sys.argv[1] for b in boots), ("the 0.1.0 boot is gone", boots)' "$(<"$fixtures/boot_id")"
}
check_old_sampler() {
    # The 0.1.0 sampler still running keeps its snapshot fresh: the fixture's time moved to
    # now (and the body's checksum with it; docs/snapshot-format.md), every other byte 0.1.0's.
    python3 - "$fixtures/snapshot" "$root/run/sysstats-0.1.0/snapshot.new" <<'PY'
import struct, sys, time, zlib
data = bytearray(open(sys.argv[1], "rb").read())
assert data[:8] == b"SYSSTATS" and struct.unpack_from("<HHI", data, 32) == (1, 1, 16), "not a v3 snapshot with meta first"
struct.pack_into("<Q", data, 40, int(time.time() * 1000))
struct.pack_into("<I", data, 24, zlib.crc32(data[32:]))
open(sys.argv[2], "wb").write(data)
PY
    mv "$root/run/sysstats-0.1.0/snapshot.new" "$root/run/sysstats-0.1.0/snapshot"
    in_root "$1/sysstats" report --json --runtime-dir /run/sysstats-0.1.0 2>/dev/null | valid_report
    local line
    line=$(in_root "$1/sysstats-bar" --once --output i3bar --no-start-sampler --runtime-dir /run/sysstats-0.1.0)
    valid_i3bar <<< "$line"
    [[ $line == *'"name":"cpu"'* && $line == *'"name":"mem"'* ]] || fail "the bar shows no cpu and mem from the 0.1.0 snapshot: $line"
}

# Every path of the root but the user's own data and the places apt, dpkg and the test
# itself keep their state: what an install must leave as it found it.
root_files() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./run \
        -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/cache -o -path ./var/log \
        -o -path ./root/.local/share/sysstats -o -path ./root/.config/sysstats -o -path ./home/user/.local/share/sysstats \) -prune -o -print) |
        grep -v -x -e ./root/.local -e ./root/.local/share -e ./root/.config -e ./home/user/.local -e ./home/user/.local/share | sort
}
check_nothing_left() {
    root_files > "$work/after"
    diff "$work/before" "$work/after" > "$work/left" || fail "left behind: $(grep '^>' "$work/left" | head -n 8 | tr '\n' ' ')"
}

# --- the .deb ------------------------------------------------------------------------
started=$SECONDS
printf 'package-test: %s and %s in a clean %s root\n' "${deb##*/}" "${tarball##*/}" "$suite"
root_files > "$work/before"
place_old_data
cp "$deb" "$root/tmp/sysstats.deb"
install_deb() {
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/sysstats.deb
    local p
    for p in libsqlite3-0 libxcb1 libwayland-client0; do
        in_root dpkg-query -W -f='${Status}\n' "$p" | grep -qx 'install ok installed' || fail "apt did not install $p"
    done
}
# Nothing of the package runs as root at install or removal, so nothing can stop or kill a
# user's running sampler or bar: the control archive holds only control and md5sums.
no_maintainer_scripts() {
    local members
    members=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t | sed 's|^\./||; /^$/d' | sort | tr '\n' ' ')
    [[ $members == "control md5sums " ]] || fail "control members: $members"
}
# The config file's page, which the programs' errors and --help send the user to.
deb_has_config_page() {
    local listing
    listing=$(dpkg-deb -c "$deb") || fail "dpkg-deb -c $deb failed"
    grep -q ' \./usr/share/man/man5/sysstats-config\.5\.gz$' <<< "$listing" || fail "no usr/share/man/man5/sysstats-config.5.gz in ${deb##*/}"
    grep -q ' \./usr/share/man/man5/sysstats-budget\.5\.gz$' <<< "$listing" || fail "no usr/share/man/man5/sysstats-budget.5.gz in ${deb##*/}"
}
# Errors and warnings fail; what stays is explained in docs/packaging.md (overrides, infos).
lintian_clean() { local out; out=$(lintian --fail-on error,warning "$deb" 2>&1) || fail "$out"; }
check "deb: lintian finds no error or warning" lintian_clean
check "deb: no maintainer scripts" no_maintainer_scripts
check "deb: it has usr/share/man/man5/sysstats-config.5.gz and sysstats-budget.5.gz" deb_has_config_page
check "deb: apt installs it and its Depends" install_deb
check "deb: no Swift in the root" check_no_swift
check "deb: every program's libraries are Debian's" check_libraries /usr/bin
check "deb: every program prints its name and $version" check_versions /usr/bin
check "deb: the 0.1.0 config and history are kept and read" check_old_data /usr/bin
check "deb: a 0.1.0 sampler's snapshot serves the new CLI and bar" check_old_sampler /usr/bin
check "deb: sysstatsd --once writes a snapshot" check_sampler_once /usr/bin
check "deb: sysstats report --json parses" check_report /usr/bin
check "deb: sysstats measure forks from sysstats-spawn" check_measure /usr/bin
check "deb: sysstats-bar --once --output i3bar is valid" check_bar /usr/bin
check "deb: man -w finds every page" check_manual /usr/bin /usr/share/man
check "deb: bash completions load" check_completion
check "deb: systemd-analyze verify accepts the user unit" check_unit /usr/bin /usr/lib/systemd/user/sysstatsd.service
check "deb: sysstats history after sysstatsd-history ran" check_history /usr/bin
reinstall_deb() { in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --reinstall --no-install-recommends /tmp/sysstats.deb; }
check "deb: a running sampler and bar start again from an upgrade's files" check_session_upgrade /usr/bin reinstall_deb
purge_deb() {
    in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q sysstats
    in_root env DEBIAN_FRONTEND=noninteractive apt-get autoremove -y -q
}
check "deb: apt-get purge under a running sampler and bar: both say so, the sampler ends after the bar" check_session_removal /usr/bin purge_deb
check "deb: nothing left but the user's data" check_nothing_left

# --- the tarball, as a user without root's directories: PREFIX is ~/.local ---------------
home=/home/user extra_path=/home/user/.local/bin
install -d -m 0700 "$root$home"
# The tarball's programs need the libraries the .deb depends on; docs/packaging.md says to
# install them (the .deb's removal took them away again).
tarball_libraries() {
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libsqlite3-0 libxcb1 libwayland-client0
}
check "tarball: apt installs the libraries it needs" tarball_libraries
root_files > "$work/before"
mkdir -p "$root/tmp/tarball"
tar -xzf "$tarball" -C "$root/tmp/tarball"
tar_dir=$(cd "$root/tmp/tarball" && echo */)
install_tarball() { in_root "/tmp/tarball/${tar_dir%/}/install.sh"; }
. "$repo/install/test-package-0.1.0.sh"
check "tarball: install.sh over a running 0.1.0 bar and sampler: the sampler becomes $version's, the bar is named" \
    check_upgrade_from_0_1_0 install_tarball
check "tarball: install.sh into ~/.local" install_tarball
check "tarball: every program's libraries are Debian's" check_libraries "$home/.local/bin"
check "tarball: every program prints its name and $version" check_versions "$home/.local/bin"
check "tarball: sysstatsd --once writes a snapshot" check_sampler_once "$home/.local/bin"
check "tarball: sysstats report --json parses" check_report "$home/.local/bin"
check "tarball: sysstats measure forks from sysstats-spawn" check_measure "$home/.local/bin"
check "tarball: sysstats-bar --once --output i3bar is valid" check_bar "$home/.local/bin"
check "tarball: man -w finds every page" check_manual "$home/.local/bin" "$home/.local/share/man"
check "tarball: bash completions load" check_completion
check "tarball: systemd-analyze verify accepts the user unit" check_unit "$home/.local/bin" "$home/.local/share/systemd/user/sysstatsd.service"
check "tarball: sysstats history after sysstatsd-history ran" check_history "$home/.local/bin"
check "tarball: a running sampler and bar start again from install.sh's new files" check_session_upgrade "$home/.local/bin" install_tarball
uninstall_tarball() { in_root "$home/.local/lib/sysstats/install.sh" --uninstall; }
check "tarball: install.sh --uninstall under a running sampler and bar: both say so, the sampler ends after the bar" check_session_removal "$home/.local/bin" uninstall_tarball
check "tarball: nothing left but the user's data" check_nothing_left

printf 'package-test: %d checks, %d failed (%d s in the root)\n' "$checks" "$failed" $((SECONDS - started))
((failed == 0))
