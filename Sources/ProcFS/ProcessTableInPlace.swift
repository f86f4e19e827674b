import CLibc

/// The table changed in place, where every process's exit is watched (``ExitWatch``): a scan
/// after forks probes the pids allocated since the last one instead of listing the proc root,
/// a refresh reads the processes the last period touched and a few idle ones in turn, and an
/// exit removes one entry (the last takes its place). What a scan costs follows what changed,
/// not how many processes there are.
extension ProcessTable {
    /// Whether every process of the table is watched for its exit: a scan then needs no
    /// listing to see exits.
    var watchesEveryProcess: Bool { exitWatch != nil && watchedCount == processes.count }

    /// Whether this scan may probe the pids allocated since the last one instead of listing:
    /// every process is watched, the pids lie in one run (the allocator did not wrap, and not
    /// too many), and the periodic listing is not due.
    func mayProbe() -> Bool {
        guard watchesEveryProcess, !listingNeeded, lastCounters != nil, !reuseAll, reuseThrough >= reuseAfter,
              reuseThrough - reuseAfter <= ProcessTable.probeLimit,
              scansSinceListing < ProcessTable.scansBetweenListings else { return false }
        return true
    }

    /// A scan without a listing: the exits the kernel reported, then each pid allocated since
    /// the last scan (``setReuseRange(_:)``) tried with `pidfd_open` — a free pid (a
    /// short-lived process already gone) or a thread's costs that one call —, the table
    /// changed in place; then the refresh or the busy processes' memory as a listing's scan.
    func probe(_ buffer: ReadBuffer, refresh: Bool) {
        guard let watch = exitWatch else { return }
        listedLastScan = false
        probedLastScan = true
        probeScans &+= 1
        scansSinceListing &+= 1
        skippedCount = 0
        watch.forEachExit(watched: watchedCount) { pid, pidfd in
            guard let i = indexByPid[pid], descriptors[i].pidfd == pidfd, processes[i].pid == pid else { return }
            // A zombie is still listed in the proc root until it is reaped: it stays, and is
            // reported again at the next look.
            if stillThere(i, buffer) { return }
            markGone(i)
        }
        removeGone()
        var pid = reuseAfter
        while pid < reuseThrough {
            pid += 1
            probedPids &+= 1
            let p = Int32(bitPattern: pid)
            // A known pid in the run was skipped by the allocator (its process lives on), or
            // its exit was reported above and it is gone from the table.
            guard indexByPid[p] == nil else { continue }
            // Past the room for pidfds a new process could not be watched: the listing takes it
            // (and the descriptors stay for everything else the sampler opens).
            guard watchedCount < watchBound else {
                listingNeeded = true
                break
            }
            switch watch.watch(p) {
            case .noProcess:
                continue
            case .unwatchable:
                // Maybe a process, maybe a thread (its pid reads like one): the listing tells.
                listingNeeded = true
                continue
            case .process(let pidfd):
                pendingPidfd = pidfd
            }
            guard path.setDirectory(p) else { continue }
            if visit(p, known: nil, read: true, buffer) { watchParent(newParentPid, refresh: refresh) } else { skippedCount += 1 }
            if pendingPidfd >= 0 {   // it was gone before visit could add it
                _ = clibc_close(pendingPidfd)
                pendingPidfd = -1
            }
        }
        if refresh { refreshInPlace(buffer); readIdle(buffer) } else { rereadActiveMemory(buffer) }
    }

    /// A process that started a child since its last read is read at refreshes like a busy
    /// one from now on (at this one too when it is one), however idle it was: what its
    /// children use is accounted for only through its reads, and otherwise only a full pass
    /// would find it — among 10,000 processes, after many (a shell that waited, then runs a
    /// build's short commands; most of them are gone before a probe, one it sees is enough).
    func watchParent(_ pid: Int32, refresh: Bool) {
        guard let i = indexByPid[pid], !descriptors[i].memoryWatched, !processes[i].isKernelThread else { return }
        descriptors[i].memoryWatched = true
        touch(pid)
        if refresh && !previousTouchedAll && previousTouchedPids.count < ProcessTable.touchedLimit {
            previousTouchedPids.append(pid)
        }
    }

    /// Whether the process at `index`, reported exited, can still be read as the same process
    /// (a zombie not yet reaped).
    func stillThere(_ index: Int, _ buffer: ReadBuffer) -> Bool { readKnownStat(index, buffer) != nil }

    /// The stat of the known process at `index`: through its kept descriptor (whose read
    /// fails once the process is gone), or by path and then only if it is the same process
    /// (same start time). Nil when it is gone.
    func readKnownStat(_ index: Int, _ buffer: ReadBuffer) -> ProcessStat? {
        let isKept = descriptors[index].stat >= 0
        let filled: Result<UnsafeRawBufferPointer, Errno>
        if isKept {
            filled = buffer.fill(from: FileDescriptor(rawValue: descriptors[index].stat))
        } else if let root = directory.descriptor, path.setDirectory(processes[index].pid) {
            filled = buffer.fill(relativeTo: root, path.path("stat"))
        } else {
            return nil
        }
        guard case .success(let bytes) = filled, let stat = ProcessStat(parsing: bytes),
              isKept || stat.startTime == processes[index].startTime else { return nil }
        return stat
    }

    /// Reads again, in place, every known process a refresh reads (with an ``IdleSkip``, those
    /// that ran at their last read; the rest are left for ``readIdle(_:)``, their CPU use
    /// now 0); those that cannot be read have exited. No listing and no copy of the table:
    /// where every exit is watched. With an ``IdleSkip`` only the processes touched in the
    /// last period are looked at: the others did not run at their last read and show no CPU use.
    func refreshInPlace(_ buffer: ReadBuffer) {
        forEachIndex(of: previousTouchedPids, orEvery: skipIdle == nil || previousTouchedAll) { refreshOne($0, buffer) }
        removeGone()
    }

    /// Calls `body` with the index of each of `pids` still in the table, or of every process.
    func forEachIndex(of pids: [Int32], orEvery every: Bool, _ body: (Int) -> Void) {
        if every {
            for i in processes.indices { body(i) }
            return
        }
        var k = 0   // an index loop: an array's iterator allocates in unoptimized builds
        while k < pids.count {
            if let i = indexByPid[pids[k]] { body(i) }
            k += 1
        }
    }

    func refreshOne(_ i: Int, _ buffer: ReadBuffer) {
        let kept = descriptors[i]
        if kept.readAtScan == scanCount { return }   // found by this scan (or named twice): just read
        if skipIdle != nil && !kept.memoryWatched {
            if processes[i].cpuDelta != 0 {
                processes[i].cpuDelta = 0
                revision &+= 1
            }
            return
        }
        if !rereadInPlace(i, buffer, accounts: true) { markGone(i) }
    }

    /// Reads the known process at `index` again, in place: its stat (through its kept
    /// descriptor, or by path and checked to be the same process), its memory as
    /// ``update(_:_:from:ranTicks:_:)`` says. Its CPU use since its last read is credited at
    /// most `creditAtMost` ticks; with `accounts`, what it and its reaped children used counts
    /// toward this refresh's accounted ticks. False when it is gone.
    func rereadInPlace(_ i: Int, _ buffer: ReadBuffer, creditAtMost: UInt64 = .max, accounts: Bool) -> Bool {
        statReads &+= 1
        let isKept = descriptors[i].stat >= 0
        guard let stat = readKnownStat(i, buffer) else { return false }
        let ran = stat.cpuTicks > processes[i].cpuTicks ? stat.cpuTicks - processes[i].cpuTicks : 0
        if accounts && skipIdle != nil {
            account(ran: ran, children: childrenRan(descriptors[i], stat))
        }
        processes[i].cpuDelta = min(ran, creditAtMost)
        revision &+= 1
        descriptors[i].readAtScan = scanCount
        touch(processes[i].pid)
        if processes[i].state == 0x52 { runningCount -= 1 }
        update(&processes[i], &descriptors[i], from: stat, ranTicks: ran, buffer)
        if processes[i].state == 0x52 { runningCount += 1 }
        if !isKept, let root = directory.descriptor {
            if stat.rssPages == 0 {
                processes[i].residentKiB = 0
                processes[i].privateKiB = 0
            } else if ran > 0, case .success(let m) = buffer.fill(relativeTo: root, path.path("statm")),
                      let statm = ProcessStatm(parsing: m) {
                processes[i].residentKiB = saturatingProduct(statm.residentPages, pageSizeKiB)
                processes[i].privateKiB = saturatingProduct(statm.privatePages, pageSizeKiB)
            }
        }
        return true
    }

    /// The CPU time the children a process reaped since its last read used.
    func childrenRan(_ kept: KeptFiles, _ stat: ProcessStat) -> UInt64 {
        stat.childTicks > kept.childTicks ? stat.childTicks - kept.childTicks : 0
    }

    /// Reports the process at `index` exited and closes its descriptors; ``removeGone()``
    /// takes it out of the table.
    func markGone(_ index: Int) {
        exited.append(processes[index])
        close(descriptors[index])
        descriptors[index] = KeptFiles()
        goneIndices.append(index)
        revision &+= 1
    }

    /// Removes the processes ``markGone(_:)`` marked, each replaced by the table's last (the
    /// order is not kept; no other process moves, nothing is copied but the last).
    func removeGone() {
        guard !goneIndices.isEmpty else { return }
        goneIndices.sort(by: >)
        for i in goneIndices {
            let last = processes.count - 1
            indexByPid.remove(processes[i].pid)
            if processes[i].state == 0x52 { runningCount -= 1 }
            if i != last {
                processes.swapAt(i, last)
                descriptors.swapAt(i, last)
                indexByPid.set(processes[i].pid, i)
            }
            processes.removeLast()
            descriptors.removeLast()
        }
        goneIndices.removeAll(keepingCapacity: true)
    }

    /// The second half of a refresh with an ``IdleSkip``: reads the idle processes the first
    /// half carried over, every one when the busy ticks exceed what the running ones account
    /// for by more than the threshold, else those due their periodic read. A process that
    /// cannot be read has exited (it was listed, or no task was reaped: a rare race).
    func readIdle(_ buffer: ReadBuffer) {
        guard let skip = skipIdle else { return }
        let shortfall = skip.busyTicks > accountedThisScan ? skip.busyTicks - accountedThisScan : 0
        accountedTicks = accountedThisScan
        // Short lives are where /proc/stat's tick sampling and the processes' own clocks
        // disagree most (a few ticks either way over a refresh while a parent reaps a hundred
        // children a second): the shortfall must pass the threshold by half what reaped
        // children accounted for, or every such refresh would read every idle process.
        let margin = skip.thresholdTicks.addingSaturating(childrenAccountedThisScan / 2)
        readEveryIdleProcess = shortfall > margin.addingSaturating(unexplainedTicks)
        var found: UInt64 = 0
        let count = processes.count
        guard count > 0 else { learnUnexplained(shortfall: shortfall, margin: margin, found: 0, sweptAll: false); return }
        // Every idle process when the busy ticks were not accounted for, else about one in
        // idleRereadRefreshes; each bounded, taking turns from where the last refresh stopped.
        let budget = readEveryIdleProcess
            ? min(count, fullPassLimit)
            : min((count + Int(ProcessTable.idleRereadRefreshes) - 1) / Int(ProcessTable.idleRereadRefreshes),
                  ProcessTable.idleRereadLimit)
        var left = budget
        func readIfIdle(_ i: Int) {
            // Idle: not busy at its last read, and not read by this refresh.
            guard !descriptors[i].memoryWatched && descriptors[i].readAtScan != scanCount else { return }
            left -= 1
            let childTicks = descriptors[i].childTicks
            if rereadInPlace(i, buffer, creditAtMost: shortfall, accounts: false) {
                let childrenRan = descriptors[i].childTicks > childTicks ? descriptors[i].childTicks - childTicks : 0
                found = found.addingSaturating(processes[i].cpuDelta).addingSaturating(childrenRan)
            } else {
                markGone(i)
            }
        }
        if readEveryIdleProcess {
            // Parents that reaped children before first: a parent of short lives that was idle
            // at its last read is where a shortfall most often comes from (what its children
            // use is accounted only through its reads), and among thousands of sleepers the
            // turns below would reach it only after many refreshes, each a full pass.
            var k = 0
            while k < count && left > 0 {
                if descriptors[k].childTicks > 0 { readIfIdle(k) }
                k += 1
            }
        }
        var i = idleCursor < count ? idleCursor : 0
        var visited = 0
        while visited < count && left > 0 {
            readIfIdle(i)
            i = i + 1 == count ? 0 : i + 1
            visited += 1
        }
        idleCursor = i
        // What a full pass left unexplained is learned only once full passes have read every
        // idle process since the last time: a pass bounded by its limit may not have reached
        // the process that woke (among 10,000, twenty passes in turn).
        var sweptAll = false
        if readEveryIdleProcess {
            idleSweepReads += budget - left
            sweptAll = left > 0 || idleSweepReads >= count
        }
        learnUnexplained(shortfall: shortfall, margin: margin, found: found, sweptAll: sweptAll)
        removeGone()
    }

    /// Keeps ``unexplainedTicks``: after a full pass that completed a sweep of every idle
    /// process (`sweptAll`), what of the shortfall beyond `margin` the idle processes it read
    /// did not account for (`found`); else the last value, less a sixteenth and at least a tick.
    func learnUnexplained(shortfall: UInt64, margin: UInt64, found: UInt64, sweptAll: Bool) {
        if sweptAll {
            let unexplained = shortfall > found ? shortfall - found : 0
            unexplainedTicks = unexplained > margin ? unexplained - margin : 0
            idleSweepReads = 0
        } else if unexplainedTicks > 0 {
            unexplainedTicks -= max(1, unexplainedTicks / 16)
        }
    }

    /// Between refreshes, re-reads the memory of the processes that were busy at their last
    /// read or are new since the last refresh (``KeptFiles/memoryWatched``): what an
    /// exit frees is credited up to the last private memory seen, so a process that grows
    /// (which takes CPU time) and exits between two refreshes must not be reported with what
    /// it had at its start. Few processes are busy; an unreadable one keeps its values (its
    /// exit shows elsewhere).
    func rereadActiveMemory(_ buffer: ReadBuffer) {
        // Every busy or new process was read or found since the refresh: it was touched.
        forEachIndex(of: touchedPids, orEvery: touchedAll) { rereadMemoryIfActive($0, buffer) }
    }

    func touch(_ pid: Int32) {
        if touchedPids.count < ProcessTable.touchedLimit { touchedPids.append(pid) } else { touchedAll = true }
    }

    func rereadMemoryIfActive(_ i: Int, _ buffer: ReadBuffer) {
        guard descriptors[i].memoryWatched && !processes[i].isKernelThread
            && descriptors[i].memoryReadAtScan != scanCount else { return }   // not one this scan found and read
        if descriptors[i].namesPending { readPendingNames(&processes[i], &descriptors[i]) }
        let memory = descriptors[i].memory
        let result: Result<UnsafeRawBufferPointer, Errno>
        if memory >= 0 {
            result = buffer.fill(from: FileDescriptor(rawValue: memory))
        } else {
            guard let root = directory.descriptor, path.setDirectory(processes[i].pid) else { return }
            result = buffer.fill(relativeTo: root, path.path("statm"))
        }
        guard case .success(let bytes) = result, let statm = ProcessStatm(parsing: bytes) else { return }
        memoryRereads &+= 1
        let residentKiB = saturatingProduct(statm.residentPages, pageSizeKiB)
        let privateKiB = saturatingProduct(statm.privatePages, pageSizeKiB)
        if residentKiB != processes[i].residentKiB || privateKiB != processes[i].privateKiB {
            processes[i].residentKiB = residentKiB
            processes[i].privateKiB = privateKiB
            revision &+= 1
        }
    }

    func unwatch(_ pidfd: Int32) {
        _ = clibc_close(pidfd)   // closed, it leaves the epoll set
        watchedCount -= 1
    }

    /// Watches a process ``visit`` adds for its exit: with the pidfd the probe opened, or a new one.
    func watchNew(_ kept: inout KeptFiles, _ pid: Int32) {
        if pendingPidfd >= 0 {
            kept.pidfd = pendingPidfd
            pendingPidfd = -1
        } else if let exitWatch, watchedCount < watchBound, case .process(let pidfd) = exitWatch.watch(pid) {
            kept.pidfd = pidfd
        } else {
            return
        }
        watchedCount += 1
    }
}
