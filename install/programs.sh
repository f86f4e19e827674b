# The programs sysstats installs, named once: install.sh, uninstall.sh, package.sh and the
# package test (test-package.sh) source this file. The helpers (sysstatsd-history,
# sysstatsd-gpu, sysstatsd-audio, sysstatsd-media, sysstats-spawn) are started by the others
# and share their manual pages.
# shellcheck disable=SC2034  # used by the scripts that source it
programs=(sysstatsd sysstatsd-history sysstatsd-gpu sysstatsd-audio sysstatsd-media sysstats sysstats-spawn sysstats-bar sysstats-bar-x11 sysstats-bar-wayland)
