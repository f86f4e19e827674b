#!/usr/bin/env bash
# Installs sysstats from this release tarball under PREFIX (default ~/.local):
#   programs in PREFIX/bin, manual pages, completions (bash, zsh's site-functions, fish),
#   the bookmarks file type and its desktop entry, the sysstatsd user unit in
#   PREFIX/share/systemd/user (not enabled), documentation in PREFIX/share/doc/sysstats.
# Every file it writes is listed in PREFIX/lib/sysstats/installed-files, the cache files
# its cache refresh made anew in created-caches; a copy of this script beside them removes
# exactly those again (a cache only once nothing is left for it to describe) and makes the
# caches again from what is left. Your data (~/.local/share/sysstats), config
# (~/.config/sysstats) and other files in PREFIX are never touched.
#
# usage: [PREFIX=DIR] ./install.sh
#        [PREFIX=DIR] PREFIX/lib/sysstats/install.sh --uninstall
set -euo pipefail

prefix=${PREFIX:-$HOME/.local}
list=$prefix/lib/sysstats/installed-files
# The cache files that were not there before an install and that its refresh made: only
# these may go with the last of our files. Whatever was there before (the user's own
# mime.cache, mimeinfo.cache, anything in share/mime) stays, made again without our files.
created=$prefix/lib/sysstats/created-caches
here=$(cd "$(dirname "$0")" && pwd)

say() { printf 'sysstats install: %s\n' "$*"; }
die() { printf 'sysstats install: %s\n' "$*" >&2; exit 1; }

[[ $prefix == /* ]] || die "PREFIX must be an absolute path, not '$prefix'"

# Caches of the file type and desktop entry, made again after files come or go.
refresh_caches() {
    if [[ -d $prefix/share/mime/packages ]] && command -v update-mime-database >/dev/null 2>&1; then
        update-mime-database "$prefix/share/mime"
    fi
    if [[ -d $prefix/share/applications ]] && command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database "$prefix/share/applications"
    fi
}

# Every file in the folders the caches are made in, sorted for comm: what the refresh adds
# to this list is a cache file it made.
cache_folder_files() {
    local dir
    for dir in "$prefix/share/mime" "$prefix/share/applications"; do
        [[ ! -d $dir ]] || find "$dir" -type f
    done | LC_ALL=C sort
}

# Whether FOLDER holds any file named PATTERN (in any folder below it).
has_files() { [[ -d $1 && -n $(find "$1" ! -type d -name "$2" -print -quit) ]]; }

# uninstall [--upgrade]: with --upgrade (install.sh before it installs again) only our
# files go; the caches and created-caches stay, so that the record of what the FIRST
# install made carries over to the new one, and the new install's refresh remakes them.
uninstall() {
    [[ -f $list ]] || die "nothing to uninstall: $list is missing (installed with another PREFIX?)"
    local file saved_list saved_created
    saved_list=$(mktemp) saved_created=$(mktemp)
    cp "$list" "$saved_list"
    # An install by a release without created-caches made nothing we know of: keep every cache.
    [[ ! -f $created ]] || cp "$created" "$saved_created"
    while IFS= read -r file; do
        [[ $file == "$prefix"/share/mime/* || $file == "$prefix"/share/applications/* ]] \
            || die "$created names $file, not a cache in $prefix: not removing anything"
    done < "$saved_created"
    while IFS= read -r file; do
        [[ $file == "$prefix"/* ]] || die "$list names $file, outside $prefix: not removing anything more"
        rm -f -- "$file"
    done < "$saved_list"
    rm -f -- "$list" "$prefix/lib/sysstats/install.sh"
    if [[ ${1:-} != --upgrade ]]; then
        # The caches are made again from the files that are left, so that they no longer
        # name ours. A cache file our install made goes only when nothing is left for it
        # to describe (no file type package, no desktop entry): then it was ours alone.
        # One that was there before, or that describes the user's files, stays.
        refresh_caches
        while IFS= read -r file; do
            case $file in
                "$prefix"/share/mime/*) has_files "$prefix/share/mime/packages" '*' || rm -f -- "$file" ;;
                "$prefix"/share/applications/*) has_files "$prefix/share/applications" '*.desktop' || rm -f -- "$file" ;;
            esac
        done < "$saved_created"
        rm -f -- "$created"
    fi
    # The folders left empty, up to (not including) the prefix itself.
    local dir
    while IFS= read -r file; do
        dir=$(dirname "$file")
        while [[ $dir == "$prefix"/* ]] && rmdir -- "$dir" 2>/dev/null; do dir=$(dirname "$dir"); done
    done < <(printf '%s\n' "$prefix/lib/sysstats/x"; cat "$saved_list" "$saved_created")
    rm -f -- "$saved_list" "$saved_created"
    say "removed from $prefix; your data and config are kept"
}

case ${1:-} in
    --uninstall) uninstall; exit 0 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) die "unknown option $1 (see --help)" ;;
esac

[[ -d $here/bin && -d $here/share ]] || die "$here is not an unpacked sysstats tarball (no bin/ and share/)"

# The unit names the sampler by its path, as systemd reads it: % doubled, quoted with a
# space; a quote, backslash or control character cannot be written there.
bindir=$prefix/bin
if [[ $bindir == *[\"\\]* || $bindir == *[[:cntrl:]]* ]]; then
    die "$bindir: a quote, backslash or control character in a path the systemd unit names"
fi
unit_bin=${bindir//%/%%}
[[ $unit_bin == *" "* ]] && unit_bin="\"$unit_bin\""

# An older install's files go first, so that a file this release no longer has goes too.
[[ -f $list ]] && PREFIX=$prefix uninstall --upgrade >/dev/null

new_list=$(mktemp) new_created=$(mktemp) caches_before=$(mktemp)
trap 'rm -f "$new_list" "$new_created" "$caches_before"' EXIT
while IFS= read -r -d '' source; do
    relative=${source#"$here"/}
    target=$prefix/$relative
    install -d "$(dirname "$target")"
    if [[ -L $source ]]; then
        ln -sfn "$(readlink "$source")" "$target"
    elif [[ $relative == share/systemd/user/sysstatsd.service ]]; then
        unit=$(<"$source")
        printf '%s\n' "${unit//@BINDIR@/"$unit_bin"}" > "$target.tmp"
        chmod 0644 "$target.tmp"
        mv -f "$target.tmp" "$target"
    else
        install -m "$(stat -c %a "$source")" "$source" "$target"
    fi
    printf '%s\n' "$target" >> "$new_list"
done < <(find "$here/bin" "$here/share" \( -type f -o -type l \) -print0 | sort -z)

install -d "$prefix/lib/sysstats"
install -m 0755 "$here/install.sh" "$prefix/lib/sysstats/install.sh"
install -m 0644 "$new_list" "$list"
# The cache files the refresh makes that were not there: ours, with those an earlier
# install made (kept by the upgrade's uninstall above, so they are "there" now).
cache_folder_files > "$caches_before"
refresh_caches
{ [[ ! -f $created ]] || cat "$created"; cache_folder_files | LC_ALL=C comm -13 "$caches_before" -; } \
    | LC_ALL=C sort -u > "$new_created"
install -m 0644 "$new_created" "$created"
# A 0.1.0 sampler or bar still running from a file this install replaced.
"$here/old-programs.sh" "$bindir"
# The programs link only the system's own libraries; name any this system lacks.
missing=$(for p in "$bindir"/sysstats*; do { ldd "$p" 2>/dev/null || true; } | awk '/not found/ {print $1}'; done | sort -u | tr '\n' ' ')
[[ -z $missing ]] || say "missing libraries: ${missing}(Debian and Ubuntu: apt install libsqlite3-0 libxcb1 libwayland-client0)"
say "installed in $prefix ($(wc -l < "$list") files); remove with: PREFIX=$prefix $prefix/lib/sysstats/install.sh --uninstall"
case ":$PATH:" in *":$bindir:"*) ;; *) say "add $bindir to PATH" ;; esac
# A session started before the folder was on its PATH (~/.local/bin made by this install)
# would not find the bar: the line to use names it whole.
say "for i3 or sway, in the bar { } block: status_command $bindir/sysstats-bar --output i3bar"
