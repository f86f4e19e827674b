#!/usr/bin/env bash
# Installs sysstats for the current user (or under PREFIX):
#   the five programs to $PREFIX/bin (default ~/.local/bin),
#   their manual pages to $PREFIX/share/man/man1,
#   the bookmarks file type (shared-mime-info package) to $XDG_DATA_HOME/mime/packages,
#   the "Import sysstats bookmarks" desktop entry to $XDG_DATA_HOME/applications,
#   the sysstatsd systemd user unit to $XDG_CONFIG_HOME/systemd/user (not enabled),
# then runs update-mime-database and update-desktop-database when present.
# Idempotent: running it again replaces the same files.
#
# usage: install/install.sh [--bin-dir DIR]
#   --bin-dir DIR  take the programs from DIR instead of building them (swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/.."

programs=(sysstatsd sysstatsd-history sysstats sysstats-bar sysstats-bar-x11)
prefix=${PREFIX:-$HOME/.local}
data=${XDG_DATA_HOME:-$HOME/.local/share}
config=${XDG_CONFIG_HOME:-$HOME/.config}
bin_dir=

while (($# > 0)); do
    case $1 in
        --bin-dir) bin_dir=${2:?--bin-dir needs a directory}; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

say() { printf 'install: %s\n' "$*"; }

# The unit's paths as systemd reads them: % doubled (specifiers), quoted when they hold a
# space; a path with a quote, backslash or control character is refused.
unit_path() {
    local path=$1 prefix=${2:-}
    if [[ $path == *[\"\\]* || $path == *[[:cntrl:]]* ]]; then
        echo "install: $path: a quote, backslash or control character in a path the systemd unit names" >&2
        exit 1
    fi
    path=$prefix${path//%/%%}
    [[ $path == *" "* ]] && path="\"$path\""
    printf '%s' "$path"
}
exec_start=$(unit_path "$prefix/bin/sysstatsd")
data_arg=$(unit_path "$data/sysstats")
data_rw=$(unit_path "$data/sysstats" -)

if [[ -z $bin_dir ]]; then
    swift build -c release
    bin_dir=$(swift build -c release --show-bin-path)
fi
for p in "${programs[@]}"; do
    [[ -x $bin_dir/$p ]] || { echo "install: $bin_dir/$p is missing (build first: swift build -c release)" >&2; exit 1; }
done

install -d "$prefix/bin"
for p in "${programs[@]}"; do
    install -m 0755 "$bin_dir/$p" "$prefix/bin/$p"
done
say "programs in $prefix/bin"

# Manual pages (man sysstatsd; the unit's Documentation= names it).
install -d "$prefix/share/man/man1"
for page in assets/man/*.1; do
    install -m 0644 "$page" "$prefix/share/man/man1/${page##*/}"
done
say "manual pages in $prefix/share/man/man1"

install -d "$data/mime/packages"
install -m 0644 assets/mime/sysstats-bookmarks.xml "$data/mime/packages/sysstats-bookmarks.xml"
if command -v update-mime-database >/dev/null 2>&1; then
    update-mime-database "$data/mime"
    say "file type application/x-sysstats-bookmarks registered in $data/mime"
else
    say "update-mime-database not found (package shared-mime-info): the file type is installed but not registered"
fi

# The desktop entry runs the installed sysstats by its full path: a file manager's PATH
# need not hold $PREFIX/bin. A path with spaces is quoted as the Desktop Entry spec says.
sysstats_path=$prefix/bin/sysstats
[[ $sysstats_path == *" "* ]] && sysstats_path="\"$sysstats_path\""
install -d "$data/applications"
sed "s|^Exec=sysstats |Exec=$sysstats_path |" assets/sysstats-bookmarks-import.desktop \
    > "$data/applications/sysstats-bookmarks-import.desktop.tmp"
chmod 0644 "$data/applications/sysstats-bookmarks-import.desktop.tmp"
mv -f "$data/applications/sysstats-bookmarks-import.desktop.tmp" "$data/applications/sysstats-bookmarks-import.desktop"
if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database "$data/applications"
    say "desktop entry registered in $data/applications"
else
    say "update-desktop-database not found (package desktop-file-utils): the desktop entry is installed but not in the cache"
fi

# The sampler keeps history in the data directory, the only place in the home directory
# its unit lets it write: create it now, so that it exists when the unit starts.
install -d -m 0700 "$data/sysstats"
install -d "$config/systemd/user"
# Only the placeholders' own lines: the comments describe the paths, they do not hold them.
while IFS= read -r line; do
    case $line in
        'ExecStart=@BINDIR@/sysstatsd --data-dir @DATADIR@') line="ExecStart=$exec_start --data-dir $data_arg" ;;
        'ReadWritePaths=-@DATADIR@') line="ReadWritePaths=$data_rw" ;;
    esac
    printf '%s\n' "$line"
done < assets/sysstatsd.service > "$config/systemd/user/sysstatsd.service.tmp"
if grep -q '@[A-Z]*@' "$config/systemd/user/sysstatsd.service.tmp"; then
    rm -f "$config/systemd/user/sysstatsd.service.tmp"
    echo "install: assets/sysstatsd.service has a placeholder install.sh does not fill" >&2
    exit 1
fi
mv -f "$config/systemd/user/sysstatsd.service.tmp" "$config/systemd/user/sysstatsd.service"
say "systemd user unit in $config/systemd/user/sysstatsd.service (start: systemctl --user enable --now sysstatsd)"

# The config file: the commented defaults, unless the user has one (never overwritten).
if [ -e "$config/sysstats/config.toml" ] || [ -L "$config/sysstats/config.toml" ]; then
    say "config file kept: $config/sysstats/config.toml (sysstats config example shows the defaults)"
else
    install -d "$config/sysstats"
    install -m 0644 assets/config.toml "$config/sysstats/config.toml"
    say "config file: $config/sysstats/config.toml (docs/configuration.md)"
fi
