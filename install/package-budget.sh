# The package's size budgets, in KiB: install/package.sh fails when the .deb it builds, or
# what it installs (its Installed-Size), passes them, as the test command's memory budgets
# (sysstats-budget.toml) fail a program that grows. They are issue 48's promise: a .deb of
# at most 5 MB (5,000,000 bytes) that installs at most 16 MiB (docs/packaging.md, "What the
# bytes are", has today's figures).
# shellcheck disable=SC2034  # used by install/package.sh, which sources it
deb_budget_kib=4882
installed_budget_kib=16384
