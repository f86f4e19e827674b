import CLibc
import ProcFS
import SystemDirs
import CSamplerSys

/// Counts the SIGIO signals the kernel sends when a watch's inotify descriptor has events.
nonisolated(unsafe) private var inotifySignals: sig_atomic_t = 0

/// The sampler's sleep between samples, with the kernel watching (inotify) what it would
/// otherwise `stat` every sample: the bookmark rules cache and the config file (each in
/// its folder), the renderers'
/// `wants` folder, the runtime directory itself (removed or renamed) and the two snapshot
/// files (unlinked or renamed over). The inotify descriptor signals (SIGIO) when events
/// come: the signal ends the sleep early, the events are read and marked, and the loop
/// sleeps on to the deadline. A quiet interval is one `clock_nanosleep`, where waiting in
/// `ppoll` on the descriptor cost about 9 µs more a sample with cold caches
/// (docs/performance-history.md); a change costs one early wake-up. Where the descriptor cannot
/// signal, the sleep waits in `ppoll` as before.
///
/// While a watched file's folder does not exist yet (no history written, no bookmark made,
/// no config file), its
/// nearest existing ancestor is watched for what is created in it, and the folder's watch
/// is tried again after each such event (and only then: the ancestor's watch stands in
/// for it). Without any watch (inotify refused) the watcher concerned looks every sample,
/// as before, and the watch is tried again every 30 s.
final class ChangeWatch {
    static let retryNs: UInt64 = 30_000_000_000

    private let inotify: Int32
    /// The files watched in their folders: the rules cache, and the config file (for the
    /// `[sampler]` table); nil where there is no such path.
    private var rules: WatchedFile?
    private var config: WatchedFile?
    private var wantsWatch: Int32 = -1
    private var runtimeWatch: Int32 = -1
    /// The runtime directory's descriptor the watch was added for.
    private var runtimeDirectory: Int32 = -1
    /// The wants folder's descriptor the watch was added for.
    private var wantsFolder: Int32 = -1
    /// The snapshot files' watches and the writer's descriptors they were added for.
    private var snapshotWatches: (Int32, Int32) = (-1, -1)
    private var snapshotFiles: (Int32, Int32) = (-1, -1)
    /// The descriptor signals its events (SIGIO); false: the sleep polls it.
    private var signalled = false
    /// `inotifySignals` when the events were last read.
    private var seenSignals: sig_atomic_t = 0
    private let events = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)

    /// Set by an event; cleared by the one who looked.
    private(set) var wantsChanged = true
    private(set) var runtimeMoved = true
    private(set) var snapshotFilesChanged = true

    init(rulesPath: String?, configPath: String? = nil) {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        rules = rulesPath.map { WatchedFile(path: $0) }
        // The config was read just before: only a change after this is news. The null device
        // (`--config /dev/null`: no config) is not watched: its folder is /dev, and every write
        // to it on the machine would wake the sampler to read it again.
        config = configPath.flatMap { path -> WatchedFile? in namesNullDevice(path) ? nil : WatchedFile(path: path, changed: false) }
        if inotify >= 0 {
            signalled = csamplersys_signal_when_readable(inotify, { _ in inotifySignals &+= 1 }) == 0
        }
    }

    deinit {
        if inotify >= 0 { close(inotify) }
        events.deallocate()
    }

    /// Whether the rules cache must be looked at this sample: something changed in its
    /// folder, or there is no watch on it.
    func takeRulesChange() -> Bool {
        takeSignalledEvents()
        return rules?.take(withoutWatch: true) ?? true
    }

    /// Whether the config file may have changed since the last call: something changed in
    /// its folder (once at first, for what happened before the watch). Without a watch,
    /// false: SIGHUP is the way then, not a read of the file every sample.
    func takeConfigChange() -> Bool {
        takeSignalledEvents()
        return config?.take(withoutWatch: false) ?? false
    }

    /// Whether the wants folder `folder` (a descriptor ``RendererWants`` holds) must be looked at.
    func takeWantsChange(folder: Int32) -> Bool {
        takeSignalledEvents()
        if folder != wantsFolder { watchWants(folder) }
        defer { wantsChanged = false }
        return wantsChanged || wantsWatch < 0
    }

    /// Whether the runtime directory `directory` (the snapshot writer's descriptor) may no
    /// longer be at its path: it was removed or renamed since the last call, or there is no watch.
    func takeRuntimeMove(directory: Int32) -> Bool {
        takeSignalledEvents()
        if directory != runtimeDirectory {
            if runtimeWatch >= 0 { _ = inotify_rm_watch(inotify, runtimeWatch) }
            runtimeDirectory = directory
            runtimeWatch = watch(descriptor: directory, UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR))
            forgetAncestor(runtimeWatch)   // the same directory
            runtimeMoved = true
        }
        defer { runtimeMoved = false }
        return runtimeMoved || runtimeWatch < 0
    }

    /// Whether the snapshot writer's two files, open as `a` and `b` (either order), must be
    /// checked before the next exchange: one was unlinked, renamed over or had its attributes
    /// changed since the last call, their watches were just added, or the events are not
    /// signalled (then one could be waiting unread).
    func takeSnapshotFilesChange(_ a: Int32, _ b: Int32) -> Bool {
        takeSignalledEvents()
        if !((a == snapshotFiles.0 && b == snapshotFiles.1) || (a == snapshotFiles.1 && b == snapshotFiles.0)) {
            watchSnapshotFiles(a, b)
        }
        defer { snapshotFilesChanged = false }
        return snapshotFilesChanged || snapshotWatches.0 < 0 || snapshotWatches.1 < 0 || !signalled
    }

    /// Whether the events raise SIGIO (then another descriptor may too: its readiness ends
    /// the sleep as theirs do).
    var isSignalled: Bool { signalled }

    /// Sleeps until `deadline` (CLOCK_MONOTONIC) or a stop (SIGTERM, SIGINT), taking the
    /// events that come meanwhile. With `pushes` (the sampler, whose helpers' descriptors
    /// raise SIGIO too where the events do): its pushes are taken at each wake-up, and when
    /// something came, the sleep ends early and returns true. The sampler itself, not a
    /// closure: nothing is made on the heap per sleep.
    @discardableResult
    func sleep(untilMonotonicNs deadline: UInt64, pushes: Sampler? = nil) -> Bool {
        if inotify < 0 { Clock.sleep(untilMonotonicNs: deadline); return false }
        retryWatches(nowNs: Clock.monotonicNs())
        if signalled {
            while true {
                takeSignalledEvents()
                if let pushes, pushes.takePushes() { return true }
                if Clock.sleep(untilMonotonicNs: deadline) || stopRequested != 0 { break }
            }
            takeSignalledEvents()
            return false
        }
        var ends = pushes?.pushReadEnds ?? (-1, -1)
        while true {
            let now = Clock.monotonicNs()
            if now >= deadline { return false }
            let left = deadline - now
            let ready = csamplersys_wait_readable3(inotify, ends.0, ends.1, Int64(min(left, UInt64(Int64.max))))
            if ready <= 0 { return false }   // the deadline, or a signal (the loop checks for a stop)
            if ready & 1 != 0 { drain() }
            if retryNow { retryWatches(nowNs: Clock.monotonicNs()) }
            if ready & 6 != 0 {
                if let pushes, pushes.takePushes() { return true }
                // Half a frame, or a helper gone (its descriptor closed): the rest waits for
                // the next sample rather than spinning on it.
                if ready & 2 != 0 { ends.0 = -1 }
                if ready & 4 != 0 { ends.1 = -1 }
            }
        }
    }

    /// Whether a watched file's folder appeared on its way: its watch is tried again at once.
    private var retryNow: Bool { rules?.retryNow == true || config?.retryNow == true }

    /// Reads the events the descriptor signalled since the last read (none: no call).
    private func takeSignalledEvents() {
        guard signalled, inotifySignals != seenSignals else { return }
        seenSignals = inotifySignals
        drain()
        if retryNow { retryWatches(nowNs: Clock.monotonicNs()) }
    }

    private func retryWatches(nowNs: UInt64) {
        if rules != nil { retry(&rules!, other: config, nowNs: nowNs) }
        if config != nil { retry(&config!, other: rules, nowNs: nowNs) }
    }

    private func retry(_ file: inout WatchedFile, other: WatchedFile?, nowNs: UInt64) {
        guard file.watch < 0, inotify >= 0,
              file.retryNow || file.lastRetryNs == 0 || (file.ancestorWatch < 0 && nowNs &- file.lastRetryNs >= ChangeWatch.retryNs) else { return }
        let first = file.lastRetryNs == 0
        file.retryNow = false
        file.lastRetryNs = max(nowNs, 1)
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_ATTRIB | IN_ONLYDIR)
            | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
        // Whatever happened before the watch (for the config, not before the first: it was just read).
        if !first { file.changed = true }
        // A folder on the way made between two of these calls sends the watch on its parent
        // no event: look again until the watches stand still (a few levels at most).
        var lastAncestorEnd = -1
        for _ in 0..<8 {
            file.watch = file.folder.withUnsafeBufferPointer { inotify_add_watch(inotify, $0.baseAddress!, mask) }
            let missing = file.watch < 0 && (clibc_errno() == ENOENT || clibc_errno() == ENOTDIR)
            dropAncestorWatch(&file, other: other)
            guard missing else { return }
            let end = watchAncestor(of: file.folder, into: &file)
            if end < 0 || end == lastAncestorEnd { return }
            lastAncestorEnd = end
        }
    }

    /// Removes a file's ancestor watch, unless inotify gave the same watch to another use
    /// (the runtime directory, the wants folder, the other file's folder or ancestor: one
    /// watch per directory), which must stay.
    private func dropAncestorWatch(_ file: inout WatchedFile, other: WatchedFile?) {
        let a = file.ancestorWatch
        guard a >= 0 else { return }
        file.ancestorWatch = -1
        if a == runtimeWatch || a == wantsWatch || a == file.watch { return }
        if let other, a == other.watch || a == other.ancestorWatch { return }
        _ = inotify_rm_watch(inotify, a)
    }

    /// A watch just added for another use is no file's ancestor watch any more.
    private func forgetAncestor(_ wd: Int32) {
        guard wd >= 0 else { return }
        if rules?.ancestorWatch == wd { rules!.ancestorWatch = -1 }
        if config?.ancestorWatch == wd { config!.ancestorWatch = -1 }
    }

    /// Watches the nearest existing folder above `folder` (NUL-terminated) for entries made
    /// in it: one of them may be the next folder on the way to the file. Returns the length
    /// of the path watched, or -1 (none: the runtime directory or the wants folder itself,
    /// whose watches report other events, or nothing found).
    private func watchAncestor(of folder: [CChar], into file: inout WatchedFile) -> Int {
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_MASK_ADD)
        var path = folder
        var end = path.count - 1   // its NUL
        while end > 0 {
            while end > 0 && path[end - 1] != 0x2F { end -= 1 }   // back to the last slash
            if end == 0 { path = [0x2E, 0] } else {
                end = end > 1 ? end - 1 : end   // without the slash, unless it is the root
                path[end] = 0
            }
            if isWatchedDirectory(path) { return -1 }
            file.ancestorWatch = path.withUnsafeBufferPointer { inotify_add_watch(inotify, $0.baseAddress!, mask) }
            if file.ancestorWatch >= 0 { return end }
            if (clibc_errno() != ENOENT && clibc_errno() != ENOTDIR) || path[0] == 0x2E || end <= 1 { return -1 }
        }
        return -1
    }

    /// Whether `path` is the runtime directory or the wants folder (their descriptors').
    private func isWatchedDirectory(_ path: [CChar]) -> Bool {
        var named = stat()
        guard path.withUnsafeBufferPointer({ stat($0.baseAddress!, &named) }) == 0 else { return false }
        return isOpen(runtimeDirectory, on: named) || isOpen(wantsFolder, on: named)
    }

    /// Whether `descriptor` is open on the file `named` describes.
    private func isOpen(_ descriptor: Int32, on named: stat) -> Bool {
        var open = stat()
        return descriptor >= 0 && fstat(descriptor, &open) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    private func watchWants(_ folder: Int32) {
        if wantsWatch >= 0 { _ = inotify_rm_watch(inotify, wantsWatch) }
        wantsWatch = -1
        wantsFolder = folder
        wantsChanged = true
        guard inotify >= 0, folder >= 0 else { return }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_ATTRIB | IN_ONLYDIR)
            | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
        wantsWatch = watch(descriptor: folder, mask)
        forgetAncestor(wantsWatch)   // the same directory
    }

    private func watchSnapshotFiles(_ a: Int32, _ b: Int32) {
        if snapshotWatches.0 >= 0 { _ = inotify_rm_watch(inotify, snapshotWatches.0) }
        if snapshotWatches.1 >= 0 { _ = inotify_rm_watch(inotify, snapshotWatches.1) }
        snapshotFiles = (a, b)
        snapshotFilesChanged = true
        // Unlinking a file (or renaming another over it) changes its link count: IN_ATTRIB.
        // The writer's own pwrite (IN_MODIFY) and exchange (IN_MOVE_SELF) send nothing.
        let mask = UInt32(IN_ATTRIB | IN_DELETE_SELF)
        snapshotWatches = (watch(descriptor: a, mask), watch(descriptor: b, mask))
    }

    /// Adds a watch on the file or directory open as `descriptor` (by /proc/self/fd: the one
    /// that was opened, whatever its path names now); -1 if refused.
    private func watch(descriptor: Int32, _ mask: UInt32) -> Int32 {
        guard inotify >= 0, descriptor >= 0 else { return -1 }
        // "/proc/self/fd/N", built by hand (see init).
        var path: [CChar] = [0x2F, 0x70, 0x72, 0x6F, 0x63, 0x2F, 0x73, 0x65, 0x6C, 0x66, 0x2F, 0x66, 0x64, 0x2F]
        var divisor: Int32 = 1
        while descriptor / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            path.append(CChar(0x30 + (descriptor / divisor) % 10))
            divisor /= 10
        }
        path.append(0)
        return path.withUnsafeBufferPointer { inotify_add_watch(inotify, $0.baseAddress!, mask) }
    }

    /// Reads every pending event: which watch, and for the rules, whether it names the file.
    private func drain() {
        while true {
            let n = read(inotify, events.baseAddress, events.count)
            if n <= 0 { return }
            var offset = 0
            while offset + 16 <= n {
                let wd = events.load(fromByteOffset: offset, as: Int32.self)
                let mask = events.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(events.load(fromByteOffset: offset + 12, as: UInt32.self))
                guard offset + 16 + length <= n else { break }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    rules?.changed = true
                    config?.changed = true
                    wantsChanged = true
                    runtimeMoved = true
                    snapshotFilesChanged = true
                }
                if rules != nil { rules!.note(wd: wd, mask: mask, names: names(rules!.name, offset + 16, length)) }
                if config != nil { config!.note(wd: wd, mask: mask, names: names(config!.name, offset + 16, length)) }
                if wd == runtimeWatch {
                    if mask & UInt32(IN_IGNORED) != 0 { runtimeWatch = -1 }
                    runtimeMoved = true
                }
                if wd == snapshotWatches.0 || wd == snapshotWatches.1 {
                    if mask & UInt32(IN_IGNORED) != 0 {
                        if wd == snapshotWatches.0 { snapshotWatches.0 = -1 } else { snapshotWatches.1 = -1 }
                    }
                    snapshotFilesChanged = true
                }
                if wd == wantsWatch {
                    if mask & UInt32(IN_IGNORED) != 0 { wantsWatch = -1 }
                    wantsChanged = true
                }
                offset += 16 + length
            }
        }
    }

    /// Whether the event's name (NUL-padded) is `name`.
    private func names(_ name: [UInt8], _ offset: Int, _ length: Int) -> Bool {
        guard length >= name.count else { return false }
        for i in 0..<name.count where events[offset + i] != name[i] { return false }
        return length == name.count || events[offset + name.count] == 0
    }
}

/// One file watched through its folder (its own events say nothing once it is replaced by
/// a rename), or while the folder is missing, through the nearest existing ancestor.
struct WatchedFile {
    /// The folder (NUL-terminated) and the file's name in it.
    let folder: [CChar]
    let name: [UInt8]
    var watch: Int32 = -1
    /// While the folder does not exist: a watch on its nearest existing ancestor.
    var ancestorWatch: Int32 = -1
    /// Set by an event on the ancestor: the folder's watch is tried again at once.
    var retryNow = false
    var lastRetryNs: UInt64 = 0
    /// Set by an event; cleared by ``take()``.
    var changed = true

    init(path: String, changed: Bool = true) {
        self.changed = changed
        // Plain loops over bytes: String's splitting and interpolation, and the generic
        // slice and map code, would bring their code pages into the sampler's resident
        // memory (docs/performance-history.md, "Start-up paths as bytes").
        let path = cPath(path)
        var end = path.count - 1   // its NUL
        var slash = end
        while slash > 0 && path[slash - 1] != 0x2F { slash -= 1 }
        var name: [UInt8] = []
        var i = slash
        while i < end { name.append(UInt8(bitPattern: path[i])); i += 1 }
        end = slash > 1 ? slash - 1 : slash   // without the slash, unless it is the root
        var folder: [CChar] = []
        i = 0
        while i < end { folder.append(path[i]); i += 1 }
        if folder.isEmpty { folder.append(0x2E) }
        folder.append(0)
        self.folder = folder
        self.name = name
    }

    /// Whether the file must be looked at: something changed in its folder, or (when
    /// `withoutWatch`) there is no watch.
    mutating func take(withoutWatch: Bool) -> Bool {
        defer { changed = false }
        return changed || (withoutWatch && watch < 0 && ancestorWatch < 0)
    }

    /// Takes an event of watch `wd`; `names` says whether the event names this file.
    mutating func note(wd: Int32, mask: UInt32, names: Bool) {
        if wd == watch {
            if mask & UInt32(IN_IGNORED) != 0 { watch = -1 }
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 || names { changed = true }
        }
        if wd == ancestorWatch {
            if mask & UInt32(IN_IGNORED) != 0 { ancestorWatch = -1 }
            changed = true
            retryNow = true
        }
    }
}
