import CLibc

// A scan's bookkeeping: what it accounted, what it began and finished, kept descriptors
// closed, reused pids, the file system checked.
extension ProcessTable {
    /// Counts what a process read by this refresh used since its last read, and what the
    /// children it reaped since used.
    func account(ran: UInt64, children: UInt64) {
        accountedThisScan = accountedThisScan.addingSaturating(ran).addingSaturating(children)
        childrenAccountedThisScan = childrenAccountedThisScan.addingSaturating(children)
    }

    /// Whether a refresh leaves the known process at `index` of the previous scan unread for
    /// now: it did not run at its last read, and ``readIdle(_:)`` decides.
    func leftIdle(_ index: Int) -> Bool { isIdle(previousDescriptors[index]) }

    func isIdle(_ kept: KeptFiles) -> Bool { skipIdle != nil && !kept.memoryWatched }

    /// Reads every known process again without listing; those that cannot be read have exited.
    func rereadKnown(_ buffer: ReadBuffer) {
        begin()
        for i in previous.indices {
            let pid = previous[i].pid
            guard path.setDirectory(pid) else { continue }
            if !visit(pid, known: i, read: !leftIdle(i), buffer) { skippedCount += 1 }
        }
        finish()
    }

    /// Starts a scan: this scan's table becomes the previous one.
    func begin() {
        swap(&previous, &processes)
        swap(&previousDescriptors, &descriptors)
        swap(&previousIndexByPid, &indexByPid)
        // Each only when there is something to do: on an empty array, removeAll(keepingCapacity:)
        // is still a call into memmove and reserveCapacity an allocation (of the shared empty
        // storage's replacement), every scan of an empty table.
        if !processes.isEmpty { processes.removeAll(keepingCapacity: true) }
        if !descriptors.isEmpty { descriptors.removeAll(keepingCapacity: true) }
        indexByPid.removeAll()
        if !matched.isEmpty { matched.removeAll(keepingCapacity: true) }
        for _ in 0..<previous.count { matched.append(false) }
        if processes.capacity < previous.count { processes.reserveCapacity(previous.count) }
        if descriptors.capacity < previous.count { descriptors.reserveCapacity(previous.count) }
        runningCount = 0
        skippedCount = 0
    }

    /// Ends a scan: the previous processes not seen in it have exited; their descriptors close.
    func finish() {
        for i in previous.indices where !matched[i] {
            exited.append(previous[i])
            revision &+= 1
        }
        for i in previousDescriptors.indices {
            close(previousDescriptors[i])
            previousDescriptors[i] = KeptFiles()
        }
    }

    /// Keeps descriptors only on a real procfs (checked once the root is open), with the soft
    /// descriptor limit raised within the hard one to hold them.
    func checkFileSystem() {
        guard !checkedFileSystem, descriptorLimit > 0, directory.rewind(), let root = directory.descriptor else { return }
        checkedFileSystem = true
        // procfs: its root is inode 1 (PROC_ROOT_INO) and its generated files, stat among
        // them, have size 0. (statfs(2) is not in the Glibc module.) A fixture tree's stat
        // has its text in it.
        var rootInfo = stat(), statInfo = stat()
        guard fstat(root.rawValue, &rootInfo) == 0, rootInfo.st_ino == 1,
              fstatat(root.rawValue, "stat", &statInfo, 0) == 0, statInfo.st_size == 0 else { return }
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return }
        let headroom = 256   // for everything else the sampler opens
        let wanted = rlim_t(descriptorLimit + headroom + watchLimit)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(resource, &limit)
            guard getrlimit(resource, &limit) == 0 else { return }
        }
        let room = limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
        descriptorBound = max(0, min(descriptorLimit, room - headroom))
        keepsDescriptors = descriptorBound > 0
        watchBound = keepsDescriptors ? max(0, min(watchLimit, room - headroom - descriptorBound)) : 0
        if watchBound > 0 { exitWatch = ExitWatch() }
    }

    /// Which pids may have been allocated since the last listing: those after the last pid
    /// allocated then, through the last one now (cyclically); all when unknown, or when so
    /// many tasks were created that the allocator may have come round.
    func setReuseRange(_ counters: TaskCounters?) {
        reuseAll = true
        guard let counters, let lastCounters, counters.forks >= lastCounters.forks,
              counters.forks - lastCounters.forks < ProcessTable.reuseForkBound else { return }
        reuseAfter = lastCounters.lastPid
        reuseThrough = counters.lastPid
        reuseAll = false
    }

    func mayBeReused(_ pid: Int32) -> Bool {
        if reuseAll { return true }
        let p = UInt32(bitPattern: pid)
        if reuseThrough >= reuseAfter { return p > reuseAfter && p <= reuseThrough }
        return p > reuseAfter || p <= reuseThrough   // the allocator wrapped
    }

    func closeKept(_ fd: Int32) {
        _ = clibc_close(fd)
        keptDescriptors -= 1
    }
}
