# Sourced by install/test-package.sh and install/test-install-script.sh: one counted check.
# check NAME FUNCTION [ARG...]: runs FUNCTION, prints `${check_prefix}NAME: ok` or
# `${check_prefix}NAME FAILED: reason` (its output's last lines), and counts it in `checks`
# and `failed`. The function runs in the background and is waited for: bash ignores set -e
# in anything an `if` tests, and the first failing command must end the check. Needs `work`.
checks=0 failed=0
check() {
    local name=$1
    shift
    checks=$((checks + 1))
    ("$@") > "$work/check.out" 2>&1 &
    if wait $!; then
        printf '%s%s: ok\n' "${check_prefix:-}" "$name"
    else
        failed=$((failed + 1))
        printf '%s%s FAILED: %s\n' "${check_prefix:-}" "$name" "$(tail -n 4 "$work/check.out" | tr '\n' ' ')"
    fi
}
# fail REASON: a check's failure with its reason.
fail() { printf '%s\n' "$*"; return 1; }
