#!/usr/bin/env bash
# Installs sysstats from this release tarball under PREFIX (default ~/.local):
#   programs in PREFIX/bin, manual pages, completions (bash, zsh's site-functions, fish),
#   the bookmarks file type and its desktop entry, the sysstatsd user unit in
#   PREFIX/share/systemd/user (not enabled), documentation in PREFIX/share/doc/sysstats.
# Every file it writes is listed in PREFIX/lib/sysstats/installed-files, and a copy of this
# script beside it removes exactly those again. Your data (~/.local/share/sysstats) and
# config (~/.config/sysstats) are never touched.
#
# usage: [PREFIX=DIR] ./install.sh
#        [PREFIX=DIR] PREFIX/lib/sysstats/install.sh --uninstall
set -euo pipefail

prefix=${PREFIX:-$HOME/.local}
list=$prefix/lib/sysstats/installed-files
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

uninstall() {
    [[ -f $list ]] || die "nothing to uninstall: $list is missing (installed with another PREFIX?)"
    local file saved_list
    saved_list=$(mktemp)
    cp "$list" "$saved_list"
    while IFS= read -r file; do
        [[ $file == "$prefix"/* ]] || die "$list names $file, outside $prefix: not removing anything more"
        rm -f -- "$file"
    done < "$saved_list"
    rm -f -- "$list" "$prefix/lib/sysstats/install.sh"
    # The caches are made from the files that are left; with none left, the caches go too.
    refresh_caches
    if [[ ! -d $prefix/share/mime/packages ]] || [[ -z $(ls -A "$prefix/share/mime/packages") ]]; then
        rm -rf -- "$prefix/share/mime"
    fi
    if [[ $(ls -A "$prefix/share/applications" 2>/dev/null) == mimeinfo.cache ]]; then
        rm -f -- "$prefix/share/applications/mimeinfo.cache"
    fi
    # The folders left empty, up to (not including) the prefix itself.
    local dir
    while IFS= read -r file; do
        dir=$(dirname "$file")
        while [[ $dir == "$prefix"/* ]] && rmdir -- "$dir" 2>/dev/null; do dir=$(dirname "$dir"); done
    done < <(printf '%s\n' "$prefix/lib/sysstats/x"; cat "$saved_list")
    rm -f -- "$saved_list"
    say "removed from $prefix; your data and config are kept"
}

case ${1:-} in
    --uninstall) uninstall; exit 0 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
[[ -f $list ]] && PREFIX=$prefix uninstall >/dev/null

new_list=$(mktemp)
trap 'rm -f "$new_list"' EXIT
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
refresh_caches
# The programs link only the system's own libraries; name any this system lacks.
missing=$(for p in "$bindir"/sysstats*; do { ldd "$p" 2>/dev/null || true; } | awk '/not found/ {print $1}'; done | sort -u | tr '\n' ' ')
[[ -z $missing ]] || say "missing libraries: ${missing}(Debian and Ubuntu: apt install libsqlite3-0 libxcb1)"
say "installed in $prefix ($(wc -l < "$list") files); remove with: PREFIX=$prefix $prefix/lib/sysstats/install.sh --uninstall"
case ":$PATH:" in *":$bindir:"*) ;; *) say "add $bindir to PATH" ;; esac
