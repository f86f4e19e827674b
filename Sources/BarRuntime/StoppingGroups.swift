// The process groups of command blocks the bar has stopped (a reload replaced them, the bar
// exits): each got SIGTERM and gets SIGKILL once a grace period has passed, so a command that
// ignores SIGTERM (or a child of it that does) never outlives the block that started it.
// The bar's own children are reaped wherever SIGCHLD is handled; at exit, here.

import CBarSys

/// Process groups sent SIGTERM and not yet seen empty.
struct StoppingGroups {
    /// How long a stopped command has between SIGTERM and SIGKILL.
    static let graceMs: UInt64 = 1000

    private var pgids: [Int32] = []
    private var killAtMs: [UInt64] = []

    /// True when no stopped group is waited for.
    var isEmpty: Bool { pgids.isEmpty }

    /// Sends SIGTERM to group `pgid` (and SIGCONT: a stopped process acts on nothing else) and
    /// keeps it until it is empty or its grace has passed.
    mutating func terminate(_ pgid: Int32, nowMs: UInt64) {
        guard pgid > 0 else { return }
        _ = cbarsys_kill_group(pgid, SIGTERM)
        _ = cbarsys_kill_group(pgid, SIGCONT)
        pgids.append(pgid)
        killAtMs.append(nowMs + StoppingGroups.graceMs)
    }

    /// When the next group's grace ends (realtime ms); nil when none waits.
    var nextDeadline: UInt64? { killAtMs.min() }

    /// Forgets the groups that are empty and sends SIGKILL to those whose grace has passed.
    mutating func sweep(nowMs: UInt64) {
        var i = 0
        while i < pgids.count {
            if cbarsys_group_alive(pgids[i]) == 0 {
                remove(i)
            } else if nowMs >= killAtMs[i] {
                _ = cbarsys_kill_group(pgids[i], SIGKILL)
                remove(i)
            } else {
                i += 1
            }
        }
    }

    /// At exit: waits (reaping the bar's children, polling every 10 ms) until every group is
    /// empty or its grace has passed, then kills what is left and reaps it.
    mutating func finish(nowMs: () -> UInt64) {
        while !pgids.isEmpty {
            var status: Int32 = 0
            while cbarsys_reap(&status) > 0 {}
            let now = nowMs()
            sweep(nowMs: now)
            if pgids.isEmpty { break }
            _ = poll(nil, 0, 10)
        }
        // The last SIGKILLed leaders: reap them (a group leader killed is gone within
        // milliseconds; one more look after 50 ms at the most).
        var status: Int32 = 0
        for _ in 0..<5 {
            if cbarsys_reap(&status) < 0 { break }   // no children left
            while cbarsys_reap(&status) > 0 {}
            _ = poll(nil, 0, 10)
        }
    }

    private mutating func remove(_ i: Int) {
        pgids.remove(at: i)
        killAtMs.remove(at: i)
    }
}
