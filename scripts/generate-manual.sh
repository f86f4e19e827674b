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
#   SamplerManualTests and BarManualTests compare with the pages.
# Run it after changing a command, an option or a help text.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package generate-manual --date "$(git log -1 --format=%cs)" --authors "sysstats"
install -m 0644 .build/plugins/GenerateManual/outputs/sysstats/sysstats.1 assets/man/sysstats.1
echo "generate-manual: assets/man/sysstats.1"
SYSSTATS_UPDATE_MANUAL=1 swift test --disable-swift-testing --filter 'SamplerManualTests|BarManualTests|BarReferenceTests|SamplerReferenceTests|CLIReferenceTests|BudgetManualTests' >/dev/null
echo "generate-manual: assets/man/sysstatsd.1, assets/man/sysstats-bar.1 (SYNOPSIS, OPTIONS), docs/reference.md"
