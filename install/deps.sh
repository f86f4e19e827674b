#!/usr/bin/env bash
# Installs what sysstats needs to build and test, if it is missing:
#   install/deps.sh          build and test packages (install/test.sh)
#   install/deps.sh --build  only what building and running need (install/run.sh, install.sh)
#   install/deps.sh --check-programs  whether every program the tests run is there
#                            (install/test-programs.txt), naming the package of a missing one
# Idempotent: quiet when everything is present; one line per package installed.
# Debian/Ubuntu via apt-get (with sudo when not root); elsewhere it lists the packages.
set -euo pipefail

build_only=0
case ${1:-} in
    --build) build_only=1 ;;
    --check-programs)
        # Each program the tests run, from install/test-programs.txt: a missing one is named
        # with its package, and the tests do not start (they would fail later, and unclearly).
        missing_programs=0
        while read -r program package _; do
            [[ -z $program || $program == \#* ]] && continue
            if [[ ! -x $program ]]; then
                echo "deps: the tests run $program, from Debian's package $package, which is missing: install/deps.sh installs it" >&2
                missing_programs=1
            fi
        done < "$(dirname "$0")/test-programs.txt"
        exit "$missing_programs" ;;
    "") ;;
    *) echo "deps: usage: install/deps.sh [--build | --check-programs]" >&2; exit 2 ;;
esac

# Build: libsqlite3 (history database), libxcb (the X11 outputs of the renderer), libwayland
# (its Wayland panel; the headers and libwayland-client), pkg-config
# to find them, libc6-dev for the static C library the always-on programs link, tzdata for
# the time block's zones.
build_packages=(libsqlite3-dev libxcb1-dev libwayland-dev pkg-config libc6-dev tzdata)
# The sampler is linked by lld (Package.swift: its symbol ordering). swift.org's toolchains
# carry ld.lld beside swift; a toolchain without it takes Debian's.
if command -v swift >/dev/null 2>&1 && ! command -v ld.lld >/dev/null 2>&1 &&
    [[ ! -x "$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld" ]]; then
    build_packages+=(lld)
fi
# Test: a headless X server (xvfb-run needs xauth) and its tools (xwd from x11-apps for
# screenshots, xdotool for clicks), i3 and i3status to compare against,
# valgrind and strace for the allocation and syscall checks (strip from binutils
# for valgrind's copy), file for the PNG check, python3 for the
# fixture generators the end-to-end tests run. The bookmarks file type's tests:
# shared-mime-info (update-mime-database), desktop-file-utils (desktop-file-validate,
# update-desktop-database), xdg-utils (xdg-mime) and libfile-mimeinfo-perl, whose
# `mimetype` is what xdg-mime uses on a machine without a desktop session; without
# it xdg-mime falls back to `file`, which ignores XDG_DATA_HOME and knows no
# application/x-sysstats-bookmarks.
# systemd-analyze (systemd) and man (man-db) check the systemd user unit and its manual page.
# tmux: report --watch in a real 80-column terminal. gdb counts the statically linked
# renderer's allocations (valgrind cannot replace a static glibc's malloc).
# bash-completion, zsh and fish: the installed completions. procps (pgrep, pkill) and curl:
# the tests' own use (install/test-programs.txt lists every program they run).
# The Prometheus export's tests: prometheus (the server and promtool) and
# prometheus-node-exporter (its textfile collector), run on loopback.
# The bars docs/integrations.md's snippets are run under (IntegrationSnippetTests): dwm,
# polybar and lemonbar on Xvfb, sway (headless wlroots; swaybar) and waybar under it;
# the Wayland panel (WaylandPanelTests) under headless sway, grim taking its screenshots;
# util-linux's setpriv runs sway as nobody when the tests run as root (sway refuses root).
# xfwm4 (with dbus) checks the x11-window types under a stacking window manager.
# The release artefacts (install/package.sh, install/test-package.sh): dpkg-dev
# (dpkg-deb; dpkg-shlibdeps computes Depends), lintian,
# and mmdebstrap, which builds the clean Debian root they are installed into.
# sysstats measure's accuracy tests: gcc compiles their C test program (and the GPU tests their
# stand-in libnvidia-ml.so.1, Tests/Fixtures/nvml-stub), and GNU time is the
# figure they compare with.
# The volume and microphone blocks' tests run a real PulseAudio server with null sinks
# (pulseaudio; pactl from pulseaudio-utils changes its volume as a user would), and PipeWire
# with its session manager and PulseAudio server (pipewire, wireplumber, pipewire-pulse); their
# ALSA path a test sound card (an alsa-lib control plugin compiled from Tests/Fixtures against
# libasound2-dev), changed with amixer (alsa-utils). The media
# block's tests run a private session bus (dbus-daemon; dbus-send from dbus-bin calls the
# players) and test MPRIS players written in Python (python3-dbus, python3-gi's main loop).
test_packages=(xvfb xauth x11-utils x11-apps xdotool i3-wm i3status i3blocks valgrind gdb strace python3 file binutils systemd man-db tmux
               procps curl mount
               bash-completion zsh fish
               shared-mime-info desktop-file-utils xdg-utils libfile-mimeinfo-perl
               prometheus prometheus-node-exporter
               dwm polybar lemonbar sway waybar grim util-linux
               xfwm4 dbus
               pulseaudio pulseaudio-utils pipewire pipewire-pulse wireplumber libasound2-dev alsa-utils
               dbus-daemon dbus-bin python3-dbus python3-gi
               dpkg-dev lintian mmdebstrap
               gcc time)
packages=("${build_packages[@]}")
((build_only)) || packages+=("${test_packages[@]}")

say() { printf 'deps: %s\n' "$*"; }

swift_missing() {
    cat >&2 <<'MSG'
deps: swift is not on PATH. sysstats needs Swift 6.3 or later:
deps:   install it with swiftly (https://www.swift.org/install/linux/):
deps:     curl -O https://download.swift.org/swiftly/linux/swiftly-$(uname -m).tar.gz
deps:     tar zxf swiftly-$(uname -m).tar.gz && ./swiftly init
deps:   or unpack a toolchain from https://www.swift.org/install/ and put its usr/bin on PATH.
MSG
}

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
    say "not a Debian/Ubuntu system (no apt-get): install these with your package manager if they are missing:"
    say "  build: ${build_packages[*]}"
    say "  test:  ${test_packages[*]}"
    say "  (names are Debian's; e.g. Fedora: sqlite-devel libxcb-devel pkgconf xorg-x11-server-Xvfb xorg-x11-utils i3 i3status valgrind strace python3)"
    command -v swift >/dev/null 2>&1 || { swift_missing; exit 1; }
    exit 0
fi

installed() {
    [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]
}

missing=()
for package in "${packages[@]}"; do
    installed "$package" || missing+=("$package")
done

if ((${#missing[@]} > 0)); then
    if [[ $(id -u) -eq 0 ]]; then
        as_root=()
    elif command -v sudo >/dev/null 2>&1; then
        as_root=(sudo)
    else
        say "missing packages: ${missing[*]}; run as root (no sudo here): apt-get install ${missing[*]}" >&2
        exit 1
    fi
    apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
    if ! "${apt[@]}" update -qq >/dev/null; then
        say "apt-get update failed; install by hand: apt-get install ${missing[*]}" >&2
        exit 1
    fi
    if ! "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
        say "could not install: ${missing[*]} (apt-get install failed; see its message above)" >&2
        exit 1
    fi
    for package in "${missing[@]}"; do
        say "installed $package"
    done
fi

command -v swift >/dev/null 2>&1 || { swift_missing; exit 1; }
