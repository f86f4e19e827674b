#!/usr/bin/env bash
# Regenerates assets/man/sysstats.1 from the CLI's own help text with
# swift-argument-parser's generate-manual plugin. Run it after changing a command,
# an option or a help text of sysstats; ManualAndCompletionTests fails when a
# command or an option is missing from the page. (sysstatsd.1 and sysstats-bar.1
# are written by hand: their programs parse their own options.)
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-manual --date "$(git log -1 --format=%cs)" --authors "sysstats"
install -m 0644 .build/plugins/GenerateManual/outputs/sysstats/sysstats.1 assets/man/sysstats.1
echo "generate-manual: assets/man/sysstats.1"
