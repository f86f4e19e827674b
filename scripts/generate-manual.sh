#!/usr/bin/env bash
# Regenerates the manual pages' generated parts:
# - assets/man/sysstats.1 from the CLI's own help text with swift-argument-parser's
#   generate-manual plugin (ManualAndCompletionTests fails when a command or an option is
#   missing from the page);
# - docs/reference.md's generated parts (BarReferenceTests, SamplerReferenceTests,
#   CLIReferenceTests write them from the code and fail when they differ);
# - assets/man/sysstats-budget.5 and docs/budgets.md's key table from the budgets-file
#   parser's key table (BudgetManualTests);
# - the SYNOPSIS and OPTIONS sections of assets/man/sysstatsd.1 and sysstats-bar.1 from
#   their programs' option tables (SamplerOptions.table, BarOptions.table), which
#   SamplerManualTests and BarManualTests compare with the pages;
# - the default bar in sysstats-bar.1 and sysstats-config.5 from BarBlock.defaults
#   (BarManualTests);
# - the `sysstats report` line of README.md and docs/usage.md from what report prints for
#   the bar's station snapshot (ReadmeTests);
# - the section versions in docs/snapshot-format.md from the encoder (SectionVersionsDocTests).
# Run it after changing a command, an option, a help text, the default bar, the report or a
# section's version.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-manual --date "$(git log -1 --format=%cs)" --authors "sysstats"
install -m 0644 .build/plugins/GenerateManual/outputs/sysstats/sysstats.1 assets/man/sysstats.1
echo "generate-manual: assets/man/sysstats.1"
SYSSTATS_UPDATE_MANUAL=1 swift test --disable-swift-testing --filter 'SamplerManualTests|BarManualTests|BarReferenceTests|SamplerReferenceTests|CLIReferenceTests|BudgetManualTests|ReadmeTests|SectionVersionsDocTests' >/dev/null
echo "generate-manual: assets/man/sysstatsd.1, assets/man/sysstats-bar.1, sysstats-config.5 (default bar), docs/reference.md, README.md and docs/usage.md (report line), docs/snapshot-format.md (section versions)"
