# shellcheck shell=bash
# Shared by bench/run.sh and bench/bar.sh (sourced, not run). Expects $root
# (the package root, the current directory) and a say() function.
: "${root:?bench/lib.sh needs \$root}"

# Installs strace, python3 and i3status with apt-get when missing and run as
# root; otherwise names them and exits.
need_bench_tools() {
    local missing=()
    command -v strace >/dev/null || missing+=(strace)
    command -v python3 >/dev/null || missing+=(python3)
    command -v i3status >/dev/null || missing+=(i3status)
    ((${#missing[@]} == 0)) && return 0
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        say "installing ${missing[*]} with apt-get"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
    else
        say "missing ${missing[*]}: install them (sudo apt-get install ${missing[*]}) and run again"
        exit 1
    fi
}

# Prints the path of the release PRODUCT, building it first when it is missing
# or older than the sources.
release_binary() {
    local product=$1 binary=$root/.build/release/$1
    if [[ ! -x $binary ]] || [[ -n $(find Sources Package.swift -newer "$binary" -print -quit) ]]; then
        say "building the release $product (swift build -c release --product $product)"
        swift build -c release --product "$product" >&2
    fi
    [[ -x $binary ]] || { say "no $product at $binary"; exit 1; }
    printf '%s\n' "$binary"
}

# Sets $work to a fresh directory named NAME.XXXXXX on tmpfs ($BENCH_TMPDIR if
# set, else $XDG_RUNTIME_DIR or /dev/shm when they are tmpfs, else /tmp), where
# $XDG_RUNTIME_DIR is in a real session: replacing the snapshot by rename on a
# disk file system (ext4) costs ~0.15 ms more per update. On exit the directory
# and any background job are removed.
make_work_dir() {
    local base=${BENCH_TMPDIR:-} candidate
    if [[ -z $base ]]; then
        base=/tmp
        for candidate in "${XDG_RUNTIME_DIR:-}" /dev/shm; do
            if [[ -n $candidate && -d $candidate && -w $candidate ]] \
                && [[ $(stat -f -c %T "$candidate") == tmpfs ]]; then
                base=$candidate
                break
            fi
        done
    fi
    work=$(mktemp -d "$base/$1.XXXXXX")
    trap remove_work_dir EXIT
}

remove_work_dir() {
    local pid
    for pid in $(jobs -p); do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}

# Writes to FILE the i3status configuration both benchmarks compare against:
# cpu_usage, memory, load and battery all, interval 1 s, no bar protocol.
write_i3status_conf() {
    cat >"$1" <<'CONF'
general {
    output_format = "none"
    interval = 1
}
order += "cpu_usage"
order += "memory"
order += "load"
order += "battery all"
cpu_usage { format = "%usage" }
memory { format = "%used / %total" }
load { format = "%1min" }
battery all { format = "%status %percentage %remaining" }
CONF
}

# Makes DIR/proc, bench/floor.sh's tree: symbolic links to this machine's /proc/stat,
# meminfo, loadavg, uptime, diskstats, pressure and net, and no process.
make_floor_tree() {
    mkdir "$1/proc"
    local f
    for f in stat meminfo loadavg uptime diskstats; do ln -s "/proc/$f" "$1/proc/$f"; done
    [[ -e /proc/pressure ]] && ln -s /proc/pressure "$1/proc/pressure"
    ln -s /proc/net "$1/proc/net"
}

# CPU time of PID in ns, every thread's (/proc/PID/schedstat is the main thread's alone; the
# sampler has a second, which waits for its memory-pressure trigger).
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { print s }'; }
