#!/usr/bin/env bash
# Builds the release artefacts into dist/ (docs/packaging.md):
#   dist/sysstats_VERSION_ARCH.deb           the Debian package (files under /usr, no maintainer scripts)
#   dist/sysstats-VERSION-ARCH-linux.tar.gz  the same files under a prefix, with install.sh
# VERSION is what the built programs print (Sources/SnapshotCodec/Version.swift), and must be
# CHANGELOG.md's newest release. Neither artefact needs a Swift toolchain at run time.
#
# usage: install/package.sh [--bin-dir DIR] [--out DIR]
#   --bin-dir DIR  take the programs from DIR instead of building them (swift build -c release)
#   --out DIR      write the artefacts to DIR (default dist)
set -euo pipefail
cd "$(dirname "$0")/.."

source install/programs.sh
bin_dir= out=dist
while (($# > 0)); do
    case $1 in
        --bin-dir) bin_dir=${2:?--bin-dir needs a directory}; shift 2 ;;
        --out) out=${2:?--out needs a directory}; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "package: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

say() { printf 'package: %s\n' "$*"; }
die() { printf 'package: %s\n' "$*" >&2; exit 1; }

for tool in dpkg-deb dpkg-shlibdeps strip readelf gzip; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (install/deps.sh installs dpkg-dev and binutils)"
done

if [[ -z $bin_dir ]]; then
    swift build -c release
    bin_dir=$(swift build -c release --show-bin-path)
fi

# One version: every program must print the same `PROGRAM VERSION`, and the changelog must
# describe that release.
version=
for p in "${programs[@]}"; do
    [[ -x $bin_dir/$p ]] || die "$bin_dir/$p is missing (build first: swift build -c release)"
    line=$("$bin_dir/$p" --version) || die "$p --version failed"
    [[ $line =~ ^$p\ ([0-9]+\.[0-9]+\.[0-9]+)$ ]] || die "$p --version printed '$line', not '$p VERSION'"
    [[ -z $version || $version == "${BASH_REMATCH[1]}" ]] || die "$p is ${BASH_REMATCH[1]}, the others $version"
    version=${BASH_REMATCH[1]}
done
changelog_version=$(sed -n 's/^## \([^ ]*\).*/\1/p' CHANGELOG.md | head -n 1)
[[ $changelog_version == "$version" ]] || die "CHANGELOG.md's newest release is '$changelog_version', the programs print $version"

# Nothing from a Swift toolchain at run time: a program that still names a library outside the
# system's directories (the toolchain's libswiftCore.so, say) is not packaged.
for p in "${programs[@]}"; do
    outside=$(ldd "$bin_dir/$p" 2>/dev/null | awk '$3 ~ /^\// && $3 !~ /^\/(usr\/)?lib(64)?\// {print $1 " => " $3}' || true)
    [[ -z $outside ]] || die "$p links libraries outside /lib and /usr/lib: $outside"
done

# No regex engine: a call of the standard library's `contains(_:)` or `split(separator:)` with
# a string argument links _StringProcessing and its _RegexParser, 1.3 MB of what the package
# installs (docs/packaging.md, "What the bytes are"). The built programs still have symbols.
for p in "${programs[@]}"; do
    if nm "$bin_dir/$p" 2>/dev/null | grep -q '_RegexParser'; then
        die "$p links the regex engine (_RegexParser): a string search by the standard library's String API; use the modules' own (ConfigImport/TextSearch.swift)"
    fi
done

arch=$(dpkg --print-architecture)
# Dates from the last commit, so that the same commit packs the same files.
date_rfc2822=$(git log -1 --format=%cD 2>/dev/null || date -R)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
maintainer=${SYSSTATS_MAINTAINER:-"sysstats developers <sysstats@example.org>"}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# The files both artefacts carry, under a prefix ($1), in Debian's layout where the two agree;
# the caller places what differs (the unit, zsh's folder).
stage_tree() {
    local root=$1 zsh_dir=$2
    install -d "$root/bin"
    for p in "${programs[@]}"; do
        install -m 0755 "$bin_dir/$p" "$root/bin/$p"
        # As dh_strip does: no symbols or notes a user does not need (the programs' own
        # backtraces name functions from the dynamic symbol table).
        strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/bin/$p"
    done

    local section page
    for section in 1 5; do
        install -d "$root/share/man/man$section"
        for page in assets/man/*."$section"; do
            gzip -9n < "$page" > "$root/share/man/man$section/${page##*/}.gz"
        done
    done
    # The helper programs share their callers' pages (each page says how they are started).
    ln -s sysstatsd.1.gz "$root/share/man/man1/sysstatsd-history.1.gz"
    ln -s sysstatsd.1.gz "$root/share/man/man1/sysstatsd-gpu.1.gz"
    ln -s sysstatsd.1.gz "$root/share/man/man1/sysstatsd-audio.1.gz"
    ln -s sysstatsd.1.gz "$root/share/man/man1/sysstatsd-media.1.gz"
    ln -s sysstats.1.gz "$root/share/man/man1/sysstats-spawn.1.gz"
    ln -s sysstats-bar.1.gz "$root/share/man/man1/sysstats-bar-x11.1.gz"
    ln -s sysstats-bar.1.gz "$root/share/man/man1/sysstats-bar-wayland.1.gz"

    install -d "$root/share/bash-completion/completions" "$root/$zsh_dir" "$root/share/fish/vendor_completions.d"
    # A completion file is sourced, not run: no #! line (swift-argument-parser writes one).
    "$bin_dir/sysstats" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/share/bash-completion/completions/sysstats"
    "$bin_dir/sysstats" --generate-completion-script zsh > "$root/$zsh_dir/_sysstats"
    "$bin_dir/sysstats" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/sysstats.fish"
    for p in sysstatsd sysstats-bar; do
        install -m 0644 "assets/completions/bash/$p" "$root/share/bash-completion/completions/$p"
        install -m 0644 "assets/completions/zsh/_$p" "$root/$zsh_dir/_$p"
        install -m 0644 "assets/completions/fish/$p.fish" "$root/share/fish/vendor_completions.d/$p.fish"
    done

    install -D -m 0644 assets/mime/sysstats-bookmarks.xml "$root/share/mime/packages/sysstats-bookmarks.xml"
    install -D -m 0644 assets/sysstats-bookmarks-import.desktop "$root/share/applications/sysstats-bookmarks-import.desktop"

    local doc=$root/share/doc/sysstats
    install -d "$doc/docs" "$doc/examples" "$doc/prometheus"
    install -m 0644 README.md "$doc/README.md"
    # docs/performance-history.md (the footprint's past measurements, a fifth of the docs) is
    # for the project's developers, not a user of the package: it stays in the source.
    for f in docs/*.md; do
        [[ $f == docs/performance-history.md ]] || install -m 0644 "$f" "$doc/docs/"
    done
    # Debian's policy (12.3): documentation over 4 KiB is compressed, gzip -9n (no name or
    # time in the header: the package stays reproducible); zless and most viewers read it.
    find "$doc" -name '*.md' -size +4k -exec gzip -9n {} +
    install -m 0644 assets/config.toml "$doc/examples/config.toml"
    install -m 0644 assets/prometheus/sysstats.rules.yml assets/prometheus/sysstats-fleet.grafana.json "$doc/prometheus/"
    install -m 0644 install/package/copyright "$doc/copyright"
    debian_changelog | gzip -9n > "$doc/changelog.gz"
    find "$root" -type d -exec chmod 0755 {} +
    find "$root" -type f ! -path "$root/bin/*" -exec chmod 0644 {} +
}

# CHANGELOG.md as a Debian changelog (what lintian and apt-listchanges read): one entry per
# release dated by its heading, `(unreleased)` by the last commit; each bullet an item
# wrapped at 80 columns, the subheadings as [ groups ].
debian_changelog() {
    local heading release when date
    while IFS= read -r heading; do
        release=${heading#\#\# } release=${release%% *}
        when=$(sed -n 's/.*(\([0-9]\{4\}-[0-9][0-9]-[0-9][0-9]\)).*/\1/p' <<< "$heading")
        if [[ -n $when ]]; then date=$(date -u -R -d "$when 12:00") || die "CHANGELOG.md: a bad date in '$heading'"
        else date=$date_rfc2822; fi
        printf '%s\t%s\n' "$release" "$date"
    done < <(grep '^## ' CHANGELOG.md) > "$work/releases"
    awk -v maintainer="$maintainer" -v releases="$work/releases" '
        BEGIN { FS = "\t"; while ((getline line < releases) > 0) { split(line, f, "\t"); dates[f[1]] = f[2] } FS = " " }
        function flush(   words, n, i, out, width) {
            if (item == "") return
            n = split(item, words, " "); out = "  *"; width = 3
            for (i = 1; i <= n; i++) {
                if (width + 1 + length(words[i]) > 80) { print out; out = "   "; width = 3 }
                out = out " " words[i]; width += 1 + length(words[i])
            }
            print out; item = ""
        }
        function close_entry() { flush(); if (open) printf "\n -- %s  %s\n\n", maintainer, date; open = 0 }
        /^## / { close_entry(); date = dates[$2]; printf "sysstats (%s) unstable; urgency=medium\n\n", $2; open = 1; next }
        !open || /^[[:space:]]*$/ { next }
        /^- / { flush(); item = substr($0, 3); next }
        /^  / { sub(/^ +/, ""); item = item " " $0; next }
        { flush(); printf "  [ %s ]\n", $0 }
        END { close_entry() }' CHANGELOG.md
}

# The user unit with the sampler at $1/sysstatsd and the data directory systemd's %h names:
# a packaged unit is the same file for every user. The sandbox lets it write only the data
# directory, which must exist first: made by a step the sandbox does not hold (+). Its opening
# comment says where each install puts it (SystemdUnitPlacesTests pins the lines that write it).
packaged_unit() {
    local line
    while IFS= read -r line; do
        case $line in
            'ExecStart=@BINDIR@/sysstatsd --data-dir @DATADIR@')
                printf '%s\n' 'ExecStartPre=+/bin/mkdir -p -m 0700 %h/.local/share/sysstats'
                line="ExecStart=$1/sysstatsd --data-dir %h/.local/share/sysstats" ;;
            'ReadWritePaths=-@DATADIR@') line='ReadWritePaths=-%h/.local/share/sysstats' ;;
        esac
        printf '%s\n' "$line"
    done < assets/sysstatsd.service
}

# The .deb: programs in /usr/bin, the unit with /usr/bin/sysstatsd, no maintainer scripts
# (man-db, shared-mime-info and desktop-file-utils act on their own triggers).
deb_root=$work/deb
stage_tree "$deb_root/usr" share/zsh/vendor-completions
install -d "$deb_root/usr/lib/systemd/user"
packaged_unit /usr/bin > "$deb_root/usr/lib/systemd/user/sysstatsd.service"
grep -q '@[A-Z]*@' "$deb_root/usr/lib/systemd/user/sysstatsd.service" && die "assets/sysstatsd.service has a placeholder package.sh does not fill"
chmod 0644 "$deb_root/usr/lib/systemd/user/sysstatsd.service"

# Depends: what the dynamically linked programs need, as dpkg-shlibdeps reads it from the
# libraries' own packages (it wants a debian/control to stand in).
mkdir -p "$work/shlibs/debian"
printf 'Source: sysstats\n\nPackage: sysstats\nArchitecture: any\n' > "$work/shlibs/debian/control"
dynamic=()
for p in "${programs[@]}"; do
    readelf -d "$deb_root/usr/bin/$p" 2>/dev/null | grep -q '(NEEDED)' && dynamic+=("-e$deb_root/usr/bin/$p")
done
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "${dynamic[@]}" 2>"$work/shlibdeps.err") \
    || die "dpkg-shlibdeps failed: $(tr '\n' ' ' < "$work/shlibdeps.err")"
depends=${depends#shlibs:Depends=}

# Why lintian's findings that stay are right for this package: docs/packaging.md.
install -D -m 0644 install/package/lintian-overrides "$deb_root/usr/share/lintian/overrides/sysstats"

install -d "$deb_root/DEBIAN"
(cd "$deb_root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$deb_root/DEBIAN/md5sums"
installed_kib=$(du -sk --apparent-size "$deb_root/usr" | cut -f1)
cat > "$deb_root/DEBIAN/control" <<CONTROL
Package: sysstats
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_kib
Depends: $depends
Section: utils
Priority: optional
Description: system figures for status bars and desktop panels
 One lean sampler, sysstatsd, reads /proc and /sys once per interval (CPU,
 memory broken down, load, batteries, network, disks, temperatures, the
 processes that just exited and the memory they freed) and writes a small
 snapshot. sysstats-bar shows it in the bar you already run (i3bar, swaybar,
 waybar, dwm, tmux, polybar, lemonbar) or as a panel picture; the sysstats
 command line has reports, top with friendly names, history and backups.
CONTROL
deb=$out/sysstats_${version}_${arch}.deb
rm -f "$deb"
dpkg-deb --root-owner-group -Zxz --build "$deb_root" "$deb" >/dev/null
say "$deb ($(du -k "$deb" | cut -f1) KiB; Depends: $depends)"
# The size budgets (install/package-budget.sh): a package that grew past them fails.
source install/package-budget.sh
deb_kib=$(( ($(stat -c %s "$deb") + 1023) / 1024 ))
say "size: the .deb $deb_kib KiB of $deb_budget_kib, installed $installed_kib KiB of $installed_budget_kib (install/package-budget.sh)"
((deb_kib <= deb_budget_kib)) || die "the .deb is $deb_kib KiB, over its budget of $deb_budget_kib KiB (install/package-budget.sh)"
((installed_kib <= installed_budget_kib)) || die "the package installs $installed_kib KiB, over its budget of $installed_budget_kib KiB (install/package-budget.sh)"

# The tarball: the same files under a prefix. zsh's own folder (site-functions) instead of
# Debian's, the unit under share/systemd/user (systemd's user search path under
# $XDG_DATA_HOME and /usr/local/share), its @BINDIR@ filled by install.sh.
name=sysstats-$version-$arch-linux
tar_root=$work/tar/$name
stage_tree "$tar_root" share/zsh/site-functions
install -d "$tar_root/share/systemd/user"
packaged_unit @BINDIR@ > "$tar_root/share/systemd/user/sysstatsd.service"
chmod 0644 "$tar_root/share/systemd/user/sysstatsd.service"
install -m 0755 install/package/install.sh "$tar_root/install.sh"
install -m 0755 install/package/old-programs.sh "$tar_root/old-programs.sh"
tarball=$out/$name.tar.gz
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$work/tar" -cf - "$name" | gzip -9n > "$tarball"
say "$tarball ($(du -k "$tarball" | cut -f1) KiB)"
