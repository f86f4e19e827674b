# Sourced by install/test-package.sh: a session of 0.1.0 (a bar and the sampler it started,
# from ~/.local/bin as 0.1.0's install/install.sh left them) through this release's tarball
# install.sh (docs/packaging.md, "Upgrades and removal"). 0.1.0 was never a package, so its
# programs are built here from its last commit; the build is kept beside the cached root.
# shellcheck shell=bash

old_release=a2dc0ea113c59f64deba55da5bcedabf4a255aca   # 0.1.0's last commit (CHANGELOG.md, "0.1.0")
old_programs=(sysstatsd sysstatsd-history sysstats-bar)

# Builds 0.1.0's sampler, history writer and bar (debug: they behave as the release build
# and build faster) into $cache/0.1.0/bin, once per cached root; sets old_bin.
build_0_1_0() {
    old_bin=$cache/0.1.0/bin
    local p missing=0
    for p in "${old_programs[@]}"; do [[ -x $old_bin/$p ]] || missing=1; done
    ((missing)) || return 0
    # A shallow clone lacks it: fetched from the clone's origin then.
    git -C "$repo" cat-file -e "$old_release^{commit}" 2>/dev/null ||
        timeout 120 git -C "$repo" fetch --quiet --depth=1 origin "$old_release" > /dev/null 2>&1 || true
    git -C "$repo" cat-file -e "$old_release^{commit}" 2>/dev/null ||
        fail "0.1.0's commit $old_release is not in $repo, nor could it be fetched from its origin"
    rm -rf "$cache/0.1.0"
    mkdir -p "$cache/0.1.0/src" "$old_bin"
    git -C "$repo" archive "$old_release" | tar -x -C "$cache/0.1.0/src"
    for p in "${old_programs[@]}"; do
        (cd "$cache/0.1.0/src" && swift build --product "$p" --scratch-path "$cache/0.1.0/build") \
            > "$cache/0.1.0/build.log" 2>&1 || fail "0.1.0's $p did not build: $(tail -n 3 "$cache/0.1.0/build.log")"
        install -m 0755 "$(cd "$cache/0.1.0/src" && swift build --scratch-path "$cache/0.1.0/build" --show-bin-path)/$p" "$old_bin/$p"
    done
    rm -rf "$cache/0.1.0/build" "$cache/0.1.0/src"
}

# The pids whose program is PATH in the root, as the root sees it (SUFFIX: " (deleted)" for a
# file that was replaced).
pids_running() {
    local link pid
    for link in /proc/[0-9]*/exe; do
        [[ $(readlink "$link" 2>/dev/null) == "$root$1$2" ]] || continue
        pid=${link#/proc/} pid=${pid%/exe}
        printf '%s\n' "$pid"
    done
}
# The one of those pids whose parent is not among them: a sampler starting a helper is, for
# a moment, two processes of the same program (the child before its exec).
first_of() {
    local pids pid parent
    pids=$(pids_running "$@")
    for pid in $pids; do
        parent=$(awk '/^PPid:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || continue
        grep -qx -- "$parent" <<< "$pids" || { printf '%s' "$pid"; return 0; }
    done
}

# check_upgrade_from_0_1_0 INSTALL: 0.1.0's sampler is stopped and the 0.1.0 bar starts this
# release's; the minute the old sampler was in reaches the history; the old bar is named.
check_upgrade_from_0_1_0() {
    local bin=$home/.local/bin p old_sampler new_sampler old_bar i
    build_0_1_0
    # Whatever this check leaves running ends with it, however it ends.
    # shellcheck disable=SC2064  # $bin now: the trap runs after the function has returned
    trap "kill -KILL \$(pids_running '$bin/sysstatsd' '') \$(pids_running '$bin/sysstatsd' ' (deleted)') \
        \$(pids_running '$bin/sysstats-bar' ' (deleted)') 2>/dev/null || true" EXIT
    install -d "$root$bin"
    for p in "${old_programs[@]}"; do install -m 0755 "$old_bin/$p" "$root$bin/$p"; done
    rm -rf "$root/run/user/0/sysstats"
    root_command
    "${root_cmd[@]}" "$bin/sysstats-bar" --output i3bar < /dev/null > "$work/old-bar.out" 2> "$work/old-bar.log" &
    old_bar=$!
    for ((i = 0; i < 100; i++)); do
        old_sampler=$(first_of "$bin/sysstatsd" "")
        [[ -n $old_sampler && -s $root/run/user/0/sysstats/snapshot ]] && break
        sleep 0.2
    done
    [[ -n $old_sampler ]] || fail "the 0.1.0 bar started no sampler: $(tail -n 2 "$work/old-bar.log")"
    "$1" > "$work/upgrade-0.1.0.log" 2>&1 ||
        fail "install.sh over 0.1.0 failed: $(tail -n 3 "$work/upgrade-0.1.0.log")"
    grep -qF "stopped sysstatsd 0.1.0 (pid $old_sampler)" "$work/upgrade-0.1.0.log" ||
        fail "install.sh did not stop the 0.1.0 sampler: $(tail -n 3 "$work/upgrade-0.1.0.log")"
    grep -qF "sysstats-bar 0.1.0 (pid $old_bar) runs on from the replaced file" "$work/upgrade-0.1.0.log" ||
        fail "install.sh did not name the 0.1.0 bar: $(tail -n 3 "$work/upgrade-0.1.0.log")"
    [[ ! -e /proc/$old_sampler ]] || fail "the 0.1.0 sampler still runs after install.sh"
    # The 0.1.0 bar looks for a sampler every 30 s and starts the one beside its own path.
    for ((i = 0; i < 200; i++)); do
        new_sampler=$(first_of "$bin/sysstatsd" "")
        [[ -n $new_sampler ]] && break
        sleep 0.2
    done
    [[ -n $new_sampler ]] || fail "no sampler of this release 40 s after install.sh: $(tail -n 2 "$work/old-bar.log")"
    [[ $(in_root "/proc/$new_sampler/exe" --version) == "sysstatsd $version" ]] || fail "the sampler after the upgrade is not $version"
    [[ -z $(pids_running "$bin/sysstatsd" " (deleted)") ]] || fail "a sampler runs on from the replaced file"
    kill -0 "$old_bar" 2>/dev/null || fail "the 0.1.0 bar ended: $(tail -n 2 "$work/old-bar.log")"
    # The minute the 0.1.0 sampler was in, handed to this release's writer as it stopped.
    in_root "$bin/sysstats" history --json --since 1h | python3 -c '
import json, sys; h = json.load(sys.stdin); assert h, "no minute in the history"' ||
        fail "the 0.1.0 sampler's minute is not in the history"
}
