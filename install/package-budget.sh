# The package's size budgets, in KiB: install/package.sh fails when the .deb it builds, or
# what it installs (its Installed-Size), passes them, as the test command's memory budgets
# (sysstats-budget.toml) fail a program that grows. Issue 48's target is a .deb of 5 MB
# that installs 16 MB; today's are about twice that (docs/packaging.md, "What the bytes
# are"), so these hold the size where it is, a few percent over: lower them as it shrinks.
# shellcheck disable=SC2034  # used by install/package.sh, which sources it
deb_budget_kib=10400
installed_budget_kib=37500
