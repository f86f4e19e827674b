import CLibc

// One process read in a scan: through its kept descriptors, else by path; new ones named.
extension ProcessTable {
    /// Sets the friendly name of the process at `index` of ``processes`` (resolved by the
    /// caller, which knows the rules) and the rules version it came from. It is kept while
    /// the process lives, and reported with it in ``exited``.
    public func setFriendlyName(at index: Int, _ name: [UInt8], generation: UInt32) {
        processes[index].friendlyName = name
        processes[index].namesGeneration = generation
        revision &+= 1
    }

    /// Adds `pid` to this scan: `known` is its index in the previous scan, if it was there;
    /// `read` false carries a known process over unread; `update` false reads a known process
    /// only to check it is the same one (a pid that may have been reused), keeping its values.
    /// False if it vanished or is unreadable.
    func visit(_ pid: Int32, known: Int?, read: Bool, update: Bool = true, _ buffer: ReadBuffer) -> Bool {
        var kept = KeptFiles()
        if let i = known {
            kept = previousDescriptors[i]
            previousDescriptors[i] = KeptFiles()
            if !read {
                carry(i, kept)
                return true
            }
            if kept.stat >= 0 {
                if rereadKept(i, kept, update: update, buffer) { return true }
                // ESRCH: the task the descriptors were opened on is gone; the pid, if listed,
                // is a new process (or the statm read failed: gone between the two reads).
                close(kept)
                kept = KeptFiles()
            }
        }
        guard let root = directory.descriptor else { return false }
        var statFile: FileDescriptor?
        guard let (bytes, stat) = readStat(known: known, root, buffer, keeping: &statFile) else {
            close(kept)   // a known process read by path: its pidfd
            return false
        }

        var sample: ProcessSample
        let isNew: Bool
        // A process whose kept descriptors failed is gone: whatever has its pid now is new.
        if let i = known, !wasKept(i), previous[i].startTime == stat.startTime {
            if !update {
                statFile?.close()
                carry(i, kept)
                return true
            }
            sample = previous[i]
            matched[i] = true
            sample.cpuDelta = stat.cpuTicks >= sample.cpuTicks ? stat.cpuTicks - sample.cpuTicks : 0
            isNew = false
            revision &+= 1
        } else {
            sample = newSample(pid, stat, bytes, &kept)
            isNew = true
        }
        let residentKiB = saturatingProduct(stat.rssPages, pageSizeKiB)
        let refreshPrivate = isNew || residentKiB != sample.residentKiB
            || (UInt32(truncatingIfNeeded: pid) &+ scanCount) % ProcessTable.privateRefreshScans == 0
        sample.state = stat.state
        sample.cpuTicks = stat.cpuTicks
        sample.residentKiB = residentKiB
        sample.isKernelThread = stat.isKernelThread
        let children = isNew ? stat.childTicks : childrenRan(kept, stat)
        if isNew {
            account(ran: stat.cpuTicks, children: children)
        } else if skipIdle != nil {
            account(ran: sample.cpuDelta, children: children)
        }

        if let statFile, isNew, let files = keepMemory(&sample, statFile, root, buffer) {
            kept = files
        } else {
            statFile?.close()
            // Gone between stat and statm: skip it rather than report it with no memory.
            guard readMemoryByPath(&sample, stat, refresh: refreshPrivate, root, buffer) else {
                close(kept)
                return false
            }
        }
        kept.childTicks = stat.childTicks
        if isNew { noteNew(&sample, &kept, stat, root) }
        kept.memoryWatched = isNew || ProcessTable.isBusy(ran: sample.cpuDelta, childrenRan: children)
        kept.readAtScan = scanCount
        touch(pid)
        append(sample, kept)
        return true
    }

    /// Reads `PID/stat` (``path`` names the process): through a descriptor it keeps, left in
    /// `statFile`, when the process is to be kept (a new one, with descriptors to spare),
    /// else by path. Nil (nothing left open) when it cannot be read or parsed.
    func readStat(known: Int?, _ root: FileDescriptor, _ buffer: ReadBuffer,
                  keeping statFile: inout FileDescriptor?) -> (UnsafeRawBufferPointer, ProcessStat)? {
        statReads &+= 1
        let keeps = keepsDescriptors && keptDescriptors + 2 <= descriptorBound
            && (known == nil || wasKept(known!))   // it will be a new process
        let filled: Result<UnsafeRawBufferPointer, Errno>
        if keeps, case .success(let fd) = root.openAt(path.path("stat")) {
            statFile = fd
            filled = buffer.fill(from: fd)
        } else {
            filled = buffer.fill(relativeTo: root, path.path("stat"))
        }
        guard case .success(let bytes) = filled, let stat = ProcessStat(parsing: bytes) else {
            statFile?.close()
            statFile = nil
            return nil
        }
        return (bytes, stat)
    }

    /// The sample of a process new to the table (or a reused pid: the old process's pidfd,
    /// which it was read by path, watches the old one and goes).
    func newSample(_ pid: Int32, _ stat: ProcessStat, _ bytes: UnsafeRawBufferPointer, _ kept: inout KeptFiles) -> ProcessSample {
        if kept.pidfd >= 0 {
            unwatch(kept.pidfd)
            kept.pidfd = -1
        }
        var sample = ProcessSample()
        sample.pid = pid
        sample.startTime = stat.startTime
        sample.comm = Array(UnsafeRawBufferPointer(rebasing: bytes[stat.nameRange]))
        revision &+= 1
        return sample
    }

    /// The private memory of a process read by path: none without resident pages, from
    /// `PID/statm` when `refresh` asks. False when statm cannot be read (it is gone).
    func readMemoryByPath(_ sample: inout ProcessSample, _ stat: ProcessStat, refresh: Bool,
                          _ root: FileDescriptor, _ buffer: ReadBuffer) -> Bool {
        if stat.rssPages == 0 {
            sample.privateKiB = 0
        } else if refresh {
            guard case .success(let statmBytes) = buffer.fill(relativeTo: root, path.path("statm")),
                  let statm = ProcessStatm(parsing: statmBytes) else { return false }
            sample.privateKiB = saturatingProduct(statm.privatePages, pageSizeKiB)
        }
        return true
    }

    /// A process this scan found: its names (now, or at its next read when it is too young
    /// to have them), its exit watched, its parent noted.
    func noteNew(_ sample: inout ProcessSample, _ kept: inout KeptFiles, _ stat: ProcessStat, _ root: FileDescriptor) {
        if !stat.isKernelThread && scanBootTicks &- stat.startTime < nameDelay {
            kept.namesPending = true
            sample.name = bestName(comm: sample.comm, executable: [], firstArgumentBase: UnsafeRawBufferPointer(start: nil, count: 0))
        } else {
            readNames(&sample, root)
        }
        kept.memoryReadAtScan = scanCount
        watchNew(&kept, sample.pid)
        newParentPid = stat.parentPid
    }

    /// Whether the previous scan's process at `index` was read through kept descriptors
    /// (they failed if ``visit`` reads its stat by path: the process is gone). Its
    /// descriptors were taken by ``visit``.
    func wasKept(_ index: Int) -> Bool { previous[index].readThroughKeptFiles }

    func append(_ sample: ProcessSample, _ kept: KeptFiles) {
        if sample.state == 0x52 { runningCount += 1 }  // "R"
        indexByPid.set(sample.pid, processes.count)
        processes.append(sample)
        descriptors.append(kept)
    }

    /// A known process carried over unread, with its descriptors. One a refresh leaves idle
    /// shows no CPU use (it had none at its last read) until ``readIdle(_:)`` reads it.
    func carry(_ index: Int, _ kept: KeptFiles) {
        matched[index] = true
        if isIdle(kept) {
            var sample = previous[index]
            if sample.cpuDelta != 0 { revision &+= 1 }
            sample.cpuDelta = 0
            append(sample, kept)
            return
        }
        append(previous[index], kept)
    }

    /// Re-reads a process through its kept descriptors: `stat` (CPU time, state, resident
    /// size; its read failing with `ESRCH` is the exit), then `statm` (memory) when due.
    /// False if it cannot be read.
    func rereadKept(_ index: Int, _ kept: KeptFiles, update: Bool, _ buffer: ReadBuffer) -> Bool {
        statReads &+= 1
        guard case .success(let bytes) = buffer.fill(from: FileDescriptor(rawValue: kept.stat)),
              let stat = ProcessStat(parsing: bytes) else { return false }
        if !update {
            carry(index, kept)
            return true
        }
        var sample = previous[index]
        var kept = kept
        sample.cpuDelta = stat.cpuTicks >= sample.cpuTicks ? stat.cpuTicks - sample.cpuTicks : 0
        revision &+= 1
        if skipIdle != nil {
            account(ran: sample.cpuDelta, children: childrenRan(kept, stat))
        }
        guard self.update(&sample, &kept, from: stat, ranTicks: sample.cpuDelta, buffer) else { return false }
        matched[index] = true
        kept.readAtScan = scanCount
        touch(sample.pid)
        append(sample, kept)
        return true
    }

    /// Takes a kept process's new `stat` reading (`cpuDelta` is the caller's): its CPU ticks
    /// and state, and its memory from `statm` when it ran or every tenth scan, staggered by
    /// pid (for what reclaim and swap take from a sleeping process). The resident size is
    /// statm's only: stat's counts differently (a few pages apart), so the two never compare.
    /// False if `statm` could not be read (it is gone).
    @discardableResult
    func update(_ sample: inout ProcessSample, _ kept: inout KeptFiles, from stat: ProcessStat, ranTicks: UInt64,
                        _ buffer: ReadBuffer) -> Bool {
        let ran = ranTicks > 0
        let due = (UInt32(truncatingIfNeeded: sample.pid) &+ scanCount) % ProcessTable.privateRefreshScans == 0
        sample.cpuTicks = stat.cpuTicks
        sample.state = stat.state
        // A process whose reaped children ran is as busy as they were: a shell or make that
        // starts short-lived processes all day is read at every refresh, and what its children
        // used is then accounted for (IdleSkip).
        let children = childrenRan(kept, stat)
        kept.childTicks = stat.childTicks
        kept.memoryWatched = ProcessTable.isBusy(ran: ranTicks, childrenRan: children)
        if kept.namesPending { readPendingNames(&sample, &kept) }
        if kept.memory >= 0 && (ran || due) {
            memoryRereads &+= 1
            guard case .success(let m) = buffer.fill(from: FileDescriptor(rawValue: kept.memory)),
                  let statm = ProcessStatm(parsing: m) else { return false }
            sample.residentKiB = saturatingProduct(statm.residentPages, pageSizeKiB)
            sample.privateKiB = saturatingProduct(statm.privatePages, pageSizeKiB)
        }
        return true
    }

    /// Keeps a new process's `stat` (just read from `statFile`) and, unless it is a kernel
    /// thread, opens, reads and keeps its `statm`. Nil (nothing kept, `statFile` still open)
    /// if statm cannot be opened or read.
    func keepMemory(_ sample: inout ProcessSample, _ statFile: FileDescriptor, _ root: FileDescriptor,
                            _ buffer: ReadBuffer) -> KeptFiles? {
        var files = KeptFiles(stat: statFile.rawValue, memory: -1)
        if !sample.isKernelThread {
            guard case .success(let memory) = root.openAt(path.path("statm")) else { return nil }
            guard case .success(let m) = buffer.fill(from: memory), let statm = ProcessStatm(parsing: m) else {
                memory.close()
                return nil
            }
            files.memory = memory.rawValue
            sample.residentKiB = saturatingProduct(statm.residentPages, pageSizeKiB)
            sample.privateKiB = saturatingProduct(statm.privatePages, pageSizeKiB)
            keptDescriptors += 1
        } else {
            sample.privateKiB = 0
        }
        keptDescriptors += 1
        sample.readThroughKeptFiles = true
        return files
    }

    func close(_ kept: KeptFiles) {
        if kept.stat >= 0 { closeKept(kept.stat) }
        if kept.memory >= 0 { closeKept(kept.memory) }
        if kept.pidfd >= 0 { unwatch(kept.pidfd) }
    }

    /// The names of a process found too young to read them (``KeptFiles/namesPending``), now;
    /// its friendly name is resolved again.
    func readPendingNames(_ sample: inout ProcessSample, _ kept: inout KeptFiles) {
        guard let root = directory.descriptor, path.setDirectory(sample.pid) else { return }
        kept.namesPending = false
        readNames(&sample, root)
        sample.namesGeneration = 0
        revision &+= 1
        touch(sample.pid)
    }

    /// Fills the command line, executable name and best name of a new process.
    /// A kernel thread has neither; an unreadable file leaves its field empty.
    func readNames(_ sample: inout ProcessSample, _ root: FileDescriptor) {
        var argument0 = UnsafeRawBufferPointer(start: nil, count: 0)
        if !sample.isKernelThread {
            let lineBuffer = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<ProcessTable.commandLineCapacity])
            if let n = readPrefix(relativeTo: root, path.path("cmdline"), into: lineBuffer) {
                let raw = UnsafeRawBufferPointer(rebasing: lineBuffer[0..<n])
                sample.commandLine = commandLine(fromRaw: raw)
                argument0 = baseName(firstArgument(ofRaw: raw))
            }
            let linkBuffer = UnsafeMutableRawBufferPointer(rebasing: scratch[ProcessTable.commandLineCapacity...])
            if let n = readLink(relativeTo: root, path.path("exe"), into: linkBuffer) {
                sample.exeName = executableName(fromLink: UnsafeRawBufferPointer(rebasing: linkBuffer[0..<n]))
            }
        }
        sample.name = bestName(comm: sample.comm, executable: sample.exeName, firstArgumentBase: argument0)
    }
}
