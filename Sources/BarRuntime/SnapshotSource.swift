// The bar's snapshot source: the runtime directory checked and watched (inotify wakes the
// bar when the sampler exchanges a new snapshot into place, and tells it when the directory
// goes away), the snapshot read and decoded into the bar's one Snapshot, and the wants file
// that tells the sampler what this bar shows.

import BarCore
import SnapshotCodec
import CBarSys

extension Bar {
    /// Reads and decodes the snapshot into the reused ``snapshot``, from a runtime
    /// directory that passes the sampler's check, and only from a regular file.
    mutating func load() -> LoadResult {
        let result = loadSnapshot()
        snapshotMissing = result == .missing
        if haveSnapshot { sawSnapshot = true }
        return result
    }

    /// What the bar says in place of the blocks when nothing current is there and nothing
    /// refused: a sampler that never wrote is "not running", with how to start one (as `sysstats
    /// report` says); one whose snapshot went stale or away "stopped".
    var absentMessage: StaticString { snapshotMissing && !sawSnapshot ? notRunningMessage : staleMessage }
    var absentPanelMessage: StaticString { snapshotMissing && !sawSnapshot ? notRunningPanelMessage : staleMessage }

    private mutating func loadSnapshot() -> LoadResult {
        haveSnapshot = false
        problem = nil
        if !dirChecked {
            switch checkRuntimeDir(dirPath) {
            case .ours:
                dirChecked = true
                registerWants()
            case .missing: return .missing
            case .refused(let why): problem = why; return .refused
            }
        }
        let parts = partsShown
        // The sampler's two files, kept open: one pread when it can tell which is `snapshot`.
        let kept = keptSnapshots.candidate
        if kept >= 0 {
            let n = readWhole(kept, into: fileBuffer, positioned: true)
            if n > 0 {
                do throws(SnapshotDecodeError) {
                    try snapshot.decode(from: UnsafeRawBufferPointer(rebasing: fileBuffer[0..<n]), only: parts)
                    if keptSnapshots.isNext(snapshot.sequence) {
                        keptSnapshots.shownCandidate(sequence: snapshot.sequence)
                        haveSnapshot = true
                        return .fresh
                    }
                } catch {}
            }
            keptSnapshots.lostTrack()
        }
        // A refused file is read once more: the sampler rewrites the file a reader opened one
        // interval before (its two files take turns), and a reader that slow may have read
        // it mid-write; the checksum refused that read, the next open finds the new one.
        for attempt in 0..<2 {
            let (n, fd, identity) = readFileKeepingOpen(snapshotPath, into: fileBuffer)
            if n == notRegularFile { problem = "snapshot is not a regular file: refused"; return .refused }
            if n < 0 {
                if fd >= 0 { _ = close(fd) }
                return .missing
            }
            do throws(SnapshotDecodeError) {
                try snapshot.decode(from: UnsafeRawBufferPointer(rebasing: fileBuffer[0..<n]), only: parts)
                haveSnapshot = true
                if options.once { _ = close(fd) } else { keptSnapshots.shownFromPath(fd, identity, sequence: snapshot.sequence) }
                return .fresh
            } catch {
                _ = close(fd)
                if attempt == 1 { problem = error.message }
            }
        }
        return .refused
    }

    /// Tells the sampler which parts this bar shows and the mounts, sensors and interfaces
    /// its blocks name (`wants/<pid>` in the runtime dir, removed at exit): parts no running
    /// renderer shows are measured less often, the names are measured besides the sampler's
    /// own. A one-shot run does only when it names something the snapshot lacks (`force`;
    /// ``waitForNamedParts()``); a picture shows every part. Best effort: without the file the
    /// sampler measures everything every interval.
    func registerWants(force: Bool = false) {
        if options.once && !force { return }
        var request = renderer.request
        request.parts = partsShown
        let text = request.wantsFileText
        _ = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { dir in
                text.withUnsafeBufferPointer { cbarsys_register_wants(dir, $0.baseAddress, Int32($0.count)) }
            }
        }
    }

    /// The parts of the snapshot this bar shows (a picture: ``PanelRenderer/partsShown``): the
    /// ones it decodes, and asks the sampler to measure every interval.
    var partsShown: SnapshotSections { panel != nil ? PanelRenderer.partsShown : renderer.partsShown }

    /// Watches the runtime dir for the sampler's rename; false when the dir is not there (yet).
    mutating func addWatch() -> Bool {
        // Only the exchange (or rename) of `snapshot` wakes us: writes into .snapshot.tmp do not.
        // IN_MOVED_FROM only keeps two IN_MOVED_TO of `snapshot` apart: inotify merges an event
        // into an identical one just before it (the cookie is not compared), and a rename
        // followed by an exchange would otherwise read as one exchange (``KeptSnapshots``).
        // IN_DELETE: `snapshot` deleted says the directory is being removed (`rm -rf`). Its
        // IN_DELETE_SELF comes only once nothing holds it, and the files this bar keeps open
        // hold it (a file pins its directory), as may the sampler's: without this the bar would
        // watch the old directory for good after the sampler made a new one.
        let mask = UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
            | UInt32(IN_MASK_ADD)
        watch = dirPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { inotify_add_watch(inotifyFD, $0, mask) }
        }
        // A config file in a directory that came back: watch it again.
        if watch >= 0 { addConfigWatch() }
        return watch >= 0
    }

    /// Reads pending inotify events (one read; poll wakes again if more are left);
    /// true when the snapshot was replaced (or events were lost).
    mutating func readInotify() -> Bool {
        var changed = false
        do {
            let n = readSome(inotifyFD, eventBuffer)
            if n <= 0 { return false }
            var off = 0
            while off + 16 <= n {
                let wd = eventBuffer.load(fromByteOffset: off, as: Int32.self)
                let mask = eventBuffer.load(fromByteOffset: off + 4, as: UInt32.self)
                let len = Int(eventBuffer.load(fromByteOffset: off + 12, as: UInt32.self))
                if wd >= 0 && isIncludedFile(wd, off + 16, len)
                    && mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)) != 0 {
                    configChanged = true
                }
                if wd >= 0 && wd == configWatch {
                    if mask & UInt32(IN_IGNORED) != 0 {
                        // The watched folder went: watch the nearest one left, and follow it down.
                        configWatch = -1
                        configWatchMoves = true
                    }
                    if !configWatchNext.isEmpty {
                        if isEventName(configWatchNext, off + 16, len) && mask & (UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)) != 0 {
                            configWatchMoves = true
                        }
                    } else if isConfigName(off + 16, len) && mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
                                                                     | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 {
                        configChanged = true
                    }
                    // The same directory as the runtime dir's: one watch, read for both.
                    if wd != watch { off += 16 + len; continue }
                }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = true
                    keptSnapshots.lostTrack()
                }
                // Only the runtime watch's own: an IN_IGNORED left queued for a watch removed
                // earlier (the directory went and came back) must not drop the one added since.
                let gone = mask & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0
                let going = mask & UInt32(IN_DELETE) != 0 && isSnapshotName(off + 16, len)
                if wd == watch && (gone || going) {
                    // The dir went away (or is going): drop the watch and the files kept open in
                    // it, and look for the directory again on the timer (the sampler re-creates it).
                    // While it is going, nothing is read or written there now (the bar's wants file
                    // would race `rm -rf`); the staleness timer says so if it stays away.
                    if watch >= 0 { _ = inotify_rm_watch(inotifyFD, watch) }
                    watch = -1
                    dirChecked = false
                    if gone { changed = true }
                    keptSnapshots.forget()
                }
                if mask & UInt32(IN_MOVED_TO) != 0 && isSnapshotName(off + 16, len) {
                    changed = true
                    keptSnapshots.noteSnapshotMoved()
                } else if mask & UInt32(IN_MOVED_TO) != 0 && isName(".snapshot.tmp", off + 16, len) {
                    keptSnapshots.noteSpareMoved()
                }
                off += 16 + len
            }
            keptSnapshots.endOfEvents()
        }
        if configWatchMoves {
            configWatchMoves = false
            if followConfigFolder() { configChanged = true }
        }
        return changed
    }

    /// True when the event name at `offset` (NUL-padded, `len` bytes) is `snapshot`.
    func isSnapshotName(_ offset: Int, _ len: Int) -> Bool { isName("snapshot", offset, len) }

    /// True when the event name at `offset` (NUL-padded, `len` bytes) is `name`.
    func isName(_ name: StaticString, _ offset: Int, _ len: Int) -> Bool {
        let count = name.utf8CodeUnitCount
        guard len > count else { return len == count && matches(offset, name) }
        return matches(offset, name) && eventBuffer[offset + count] == 0
    }

    func matches(_ offset: Int, _ name: StaticString) -> Bool {
        let p = name.utf8Start
        for i in 0..<name.utf8CodeUnitCount where eventBuffer[offset + i] != p[i] { return false }
        return true
    }
}
