#!/usr/bin/env bash
# Removes what install/install.sh installed (same PREFIX, XDG_DATA_HOME, XDG_CONFIG_HOME).
# Keeps the data: history.sqlite, bookmarks and the Inbox in $XDG_DATA_HOME/sysstats.
set -euo pipefail
source "$(dirname "$0")/programs.sh"

prefix=${PREFIX:-$HOME/.local}
data=${XDG_DATA_HOME:-$HOME/.local/share}
config=${XDG_CONFIG_HOME:-$HOME/.config}

for p in "${programs[@]}"; do
    rm -f "$prefix/bin/$p"
done
for p in sysstats sysstatsd sysstats-bar; do
    rm -f "$prefix/share/man/man1/$p.1" "$data/bash-completion/completions/$p" \
          "$prefix/share/zsh/site-functions/_$p" "$data/fish/vendor_completions.d/$p.fish"
done
rm -f "$prefix/share/man/man5/sysstats-config.5" "$prefix/share/man/man5/sysstats-budget.5"
# The documentation: the files install.sh put there, then its folders if that left them empty.
doc=$prefix/share/doc/sysstats
rm -f "$doc/README.md" "$doc/CHANGELOG.md" "$doc"/docs/*.md
rmdir "$doc/docs" "$doc" 2>/dev/null || true
rm -f "$data/mime/packages/sysstats-bookmarks.xml"
if command -v update-mime-database >/dev/null 2>&1 && [[ -d $data/mime ]]; then update-mime-database "$data/mime"; fi
rm -f "$data/applications/sysstats-bookmarks-import.desktop"
if command -v update-desktop-database >/dev/null 2>&1 && [[ -d $data/applications ]]; then update-desktop-database "$data/applications"; fi
rm -f "$config/systemd/user/sysstatsd.service"
printf 'uninstall: removed; your data in %s/sysstats is kept\n' "$data"
