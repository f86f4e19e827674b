// sysstats-spawn: the small parent `sysstats measure` starts its command from
// (docs/budgets.md, "Exact peaks").
#ifndef CSPAWNHELPER_H
#define CSPAWNHELPER_H

/// Runs the helper on the process's own arguments: `sysstats-spawn -- COMMAND [ARG...]`.
/// Forks, execs COMMAND (searched in PATH) in the child, writes "P<pid>\n" (exec done) or
/// "E<errno>\n" (exec failed; the child reaped) on descriptor 3, and exits 0 (2 on bad use),
/// leaving the command to be reparented to the caller, a child subreaper. Never returns.
void cspawnhelper_run(void);

#endif
