#!/usr/bin/env bash
# Checks the release tarball's installer (install/package/install.sh) against a fake
# unpacked tarball, with HOME and PREFIX in a temporary folder: install, install again
# (an upgrade) and --uninstall must remove exactly what the install wrote and made, and
# never a file the user had in PREFIX (their own file types in share/mime, mime.cache,
# mimeinfo.cache, desktop entries). One line per check, "package-test: install.sh: NAME: ok"
# or "... NAME FAILED: why", as install/test.sh counts them; exit status 0 only when every
# check passed. Needs update-mime-database (shared-mime-info) and update-desktop-database
# (desktop-file-utils): the caches are what the checks are about.
#
# usage: [INSTALL_SH=path/to/install.sh] install/test-install-script.sh
set -euo pipefail
cd "$(dirname "$0")/.."

install_sh=${INSTALL_SH:-install/package/install.sh}
[[ -f $install_sh ]] || { echo "package-test: install.sh: setup FAILED: no $install_sh" ; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check_prefix="package-test: install.sh: "
. install/check.sh

# --- the fake tarball: the layout install/package.sh makes, small stand-in programs -------
tar=$work/tarball/sysstats-0.0.0-test-linux
install -d "$tar/bin" "$tar/share/mime/packages" "$tar/share/applications" \
    "$tar/share/man/man1" "$tar/share/systemd/user" "$tar/share/doc/sysstats" \
    "$tar/share/bash-completion/completions"
install -m 0755 "$install_sh" "$tar/install.sh"
install -m 0755 "$(dirname "$install_sh")/old-programs.sh" "$tar/old-programs.sh"
for p in sysstats sysstatsd sysstats-bar; do
    printf '#!/bin/sh\necho "%s 0.0.0"\n' "$p" > "$tar/bin/$p"
    chmod 0755 "$tar/bin/$p"
done
install -m 0644 assets/mime/sysstats-bookmarks.xml "$tar/share/mime/packages/sysstats-bookmarks.xml"
install -m 0644 assets/sysstats-bookmarks-import.desktop "$tar/share/applications/sysstats-bookmarks-import.desktop"
gzip -9n < assets/man/sysstats.1 > "$tar/share/man/man1/sysstats.1.gz"
ln -s sysstats.1.gz "$tar/share/man/man1/sysstats-alias.1.gz"
printf '[Service]\nExecStart=@BINDIR@/sysstatsd\n' > "$tar/share/systemd/user/sysstatsd.service"
printf 'sysstats test\n' > "$tar/share/doc/sysstats/README"
printf 'complete -W "report" sysstats\n' > "$tar/share/bash-completion/completions/sysstats"

# --- the user's files ------------------------------------------------------------------------
user_package() {
    cat <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="application/x-user-app">
    <comment>another program's file</comment>
    <glob pattern="*.user-app"/>
  </mime-type>
</mime-info>
EOF
}
user_desktop() {
    printf '[Desktop Entry]\nType=Application\nName=User app\nExec=true %%f\nMimeType=application/x-user-app;\n'
}

# A fresh HOME with PREFIX=HOME/.local, empty.
home=
fresh_home() {
    home=$(mktemp -d "$work/home.XXXX")
    prefix=$home/.local
    mkdir -p "$prefix"
}

# install.sh as the user runs it, its output kept for a failure's reason.
run_install() { HOME=$home PREFIX=$prefix bash "$tar/install.sh" "$@" >> "$home/log" 2>&1 || fail "install.sh $* exited $?: $(tail -n 3 "$home/log" | tr '\n' ' ')"; }
run_uninstall() { HOME=$home PREFIX=$prefix bash "$prefix/lib/sysstats/install.sh" --uninstall >> "$home/log" 2>&1 || fail "--uninstall exited $?: $(tail -n 3 "$home/log" | tr '\n' ' ')"; }

# What is in PREFIX: every path with its type; and every user file with its checksum.
listing() { (cd "$prefix" && find . -printf '%p %y\n' | LC_ALL=C sort); }
checksums() { (cd "$prefix" && sha256sum "$@"); }
same_listing() {
    local before=$1
    listing > "$home/after"
    diff "$before" "$home/after" > "$home/diff" || fail "PREFIX differs from before the install: $(tr '\n' ' ' < "$home/diff")"
}
nothing_of_ours() {
    local found
    found=$(grep -rl -e sysstats "$prefix" || true)
    [[ -z $found ]] || fail "left behind, naming sysstats: $found"
}

# --- the checks ------------------------------------------------------------------------------
need_tools() {
    command -v update-mime-database >/dev/null || fail "update-mime-database missing (apt-get install shared-mime-info)"
    command -v update-desktop-database >/dev/null || fail "update-desktop-database missing (apt-get install desktop-file-utils)"
}
check "update-mime-database and update-desktop-database are installed" need_tools

# (a) The user's file type package and a file of theirs directly in share/mime survive, and
#     the database is made again without our type.
user_mime_survives() {
    fresh_home
    mkdir -p "$prefix/share/mime/packages"
    user_package > "$prefix/share/mime/packages/user-app.xml"
    printf 'my note\n' > "$prefix/share/mime/user-note"
    checksums share/mime/packages/user-app.xml share/mime/user-note > "$home/sums"
    run_install
    [[ -f $prefix/share/mime/application/x-sysstats-bookmarks.xml ]] || fail "install did not register the file type"
    run_uninstall
    (cd "$prefix" && sha256sum --quiet -c "$home/sums") || fail "a user's file in share/mime is gone or changed"
    [[ -f $prefix/share/mime/application/x-user-app.xml ]] || fail "the user's type is no longer in the database"
    nothing_of_ours
}
check "a user's share/mime/packages/user-app.xml and share/mime/user-note survive" user_mime_survives

# (a') A share/mime holding no package, only a file of the user's: it stays as it was.
user_note_only() {
    fresh_home
    mkdir -p "$prefix/share/mime"
    printf 'my note\n' > "$prefix/share/mime/user-note"
    listing > "$home/before"
    run_install
    run_uninstall
    same_listing "$home/before"
    [[ $(cat "$prefix/share/mime/user-note") == "my note" ]] || fail "share/mime/user-note changed"
}
check "share/mime with only a user's file: kept as it was" user_note_only

# (a'') The user's database was there before; their other program's package goes while we
#       are installed, so that ours was the last package: their database (made again,
#       empty) and their file stay.
user_database_survives_last_package() {
    fresh_home
    mkdir -p "$prefix/share/mime/packages"
    user_package > "$prefix/share/mime/packages/other-app.xml"
    printf 'my note\n' > "$prefix/share/mime/user-note"
    update-mime-database "$prefix/share/mime" 2>/dev/null
    run_install
    rm "$prefix/share/mime/packages/other-app.xml"
    run_uninstall
    [[ $(cat "$prefix/share/mime/user-note" 2>/dev/null) == "my note" ]] || fail "share/mime/user-note is gone or changed"
    [[ -f $prefix/share/mime/mime.cache ]] || fail "the user's share/mime/mime.cache is gone"
    nothing_of_ours
}
check "ours the last package: the user's mime.cache and share/mime/user-note survive" user_database_survives_last_package

# (b) No share/applications before: no mimeinfo.cache (nor anything else) after.
no_cache_left() {
    fresh_home
    listing > "$home/before"
    run_install
    [[ -f $prefix/share/applications/mimeinfo.cache ]] || fail "install made no mimeinfo.cache"
    run_uninstall
    [[ ! -e $prefix/share/applications/mimeinfo.cache ]] || fail "share/applications/mimeinfo.cache left"
    same_listing "$home/before"
}
check "no share/applications before: no mimeinfo.cache after" no_cache_left

# (b') A share/applications holding no desktop entry, only a user's file: the cache our
#      install made goes, their file stays.
no_cache_left_beside_user_file() {
    fresh_home
    mkdir -p "$prefix/share/applications"
    printf 'my note\n' > "$prefix/share/applications/user-note"
    listing > "$home/before"
    run_install
    run_uninstall
    [[ ! -e $prefix/share/applications/mimeinfo.cache ]] || fail "share/applications/mimeinfo.cache left"
    same_listing "$home/before"
}
check "share/applications with only a user's file: no mimeinfo.cache after" no_cache_left_beside_user_file

# (c) The user's desktop entry and their mimeinfo.cache survive, made again without ours.
user_cache_survives() {
    fresh_home
    mkdir -p "$prefix/share/applications"
    user_desktop > "$prefix/share/applications/user-app.desktop"
    update-desktop-database "$prefix/share/applications" 2>/dev/null
    checksums share/applications/user-app.desktop > "$home/sums"
    listing > "$home/before"
    run_install
    grep -q sysstats "$prefix/share/applications/mimeinfo.cache" || fail "install did not add its entry to mimeinfo.cache"
    run_uninstall
    (cd "$prefix" && sha256sum --quiet -c "$home/sums") || fail "the user's desktop entry is gone or changed"
    [[ -f $prefix/share/applications/mimeinfo.cache ]] || fail "the user's mimeinfo.cache is gone"
    grep -q user-app.desktop "$prefix/share/applications/mimeinfo.cache" || fail "mimeinfo.cache no longer names the user's entry"
    same_listing "$home/before"
    nothing_of_ours
}
check "a user's desktop entry and mimeinfo.cache survive" user_cache_survives

# (c') A mimeinfo.cache that was there before, with no desktop entry beside it, stays.
lone_user_cache_survives() {
    fresh_home
    mkdir -p "$prefix/share/applications"
    update-desktop-database "$prefix/share/applications" 2>/dev/null
    listing > "$home/before"
    run_install
    run_uninstall
    [[ -f $prefix/share/applications/mimeinfo.cache ]] || fail "the user's mimeinfo.cache is gone"
    same_listing "$home/before"
    nothing_of_ours
}
check "a mimeinfo.cache there before, alone, survives" lone_user_cache_survives

# (d) Install, install again, uninstall, with the user's files in every folder we touch:
#     theirs all there and unchanged, nothing of ours left.
user_tree() {
    mkdir -p "$prefix/share/mime/packages" "$prefix/share/applications" "$prefix/bin" \
        "$prefix/share/doc/other" "$prefix/share/man/man1"
    user_package > "$prefix/share/mime/packages/user-app.xml"
    printf 'my note\n' > "$prefix/share/mime/user-note"
    update-mime-database "$prefix/share/mime" 2>/dev/null
    user_desktop > "$prefix/share/applications/user-app.desktop"
    update-desktop-database "$prefix/share/applications" 2>/dev/null
    printf '#!/bin/sh\n' > "$prefix/bin/other-tool"
    printf 'other\n' > "$prefix/share/doc/other/README"
    printf '.TH OTHER 1\n' > "$prefix/share/man/man1/other.1"
}
upgrade_keeps_user_files() {
    fresh_home
    user_tree
    listing > "$home/before"
    checksums share/mime/packages/user-app.xml share/mime/user-note share/applications/user-app.desktop \
        bin/other-tool share/doc/other/README share/man/man1/other.1 > "$home/sums"
    run_install
    run_install
    [[ -x $prefix/bin/sysstats && -f $prefix/share/mime/packages/sysstats-bookmarks.xml ]] || fail "the upgrade lost our files"
    run_uninstall
    (cd "$prefix" && sha256sum --quiet -c "$home/sums") || fail "a user's file is gone or changed"
    same_listing "$home/before"
    nothing_of_ours
}
check "install, upgrade, uninstall beside the user's files: theirs kept, ours gone" upgrade_keeps_user_files

# (d') The same from an empty PREFIX: the upgrade carries over the first install's record
#      of the caches it made, so that they all go at the end.
upgrade_from_empty() {
    fresh_home
    listing > "$home/before"
    run_install
    run_install
    run_uninstall
    same_listing "$home/before"
}
check "install, upgrade, uninstall from an empty PREFIX: nothing left" upgrade_from_empty

# (d'') The upgrade from a share/mime holding only a user's file.
upgrade_beside_user_note() {
    fresh_home
    mkdir -p "$prefix/share/mime"
    printf 'my note\n' > "$prefix/share/mime/user-note"
    listing > "$home/before"
    run_install
    run_install
    run_uninstall
    same_listing "$home/before"
}
check "install, upgrade, uninstall beside share/mime/user-note: kept as it was" upgrade_beside_user_note

# (e) The bar's line for i3 and sway, with the installed program's whole path: a session
#     started before ~/.local/bin existed (or was on its PATH) finds it all the same.
status_command_named_whole() {
    fresh_home
    run_install
    grep -qxF "sysstats install: for i3 or sway, in the bar { } block: status_command $prefix/bin/sysstats-bar --output i3bar" "$home/log" \
        || fail "no status_command line with $prefix/bin/sysstats-bar: $(tail -n 2 "$home/log" | tr '\n' ' ')"
    run_uninstall
}
check "install.sh names the bar's status_command with its whole path" status_command_named_whole

printf 'package-test: install.sh: %d checks, %d failed\n' "$checks" "$failed"
((failed == 0))
