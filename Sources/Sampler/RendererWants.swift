import CLibc
import ProcFS
import SnapshotCodec

/// Which parts of the snapshot the running renderers show.
///
/// Each long-running `sysstats-bar` leaves `wants/<its pid>` in the runtime directory: the
/// ``SnapshotSections`` bits of the blocks it shows, in decimal, then one line for each
/// mount, sensor or interface its blocks name (``RendererRequest``); it removes the file
/// when it exits. The names are measured as if the sampler had been told them (``named``). The sampler measures every interval the parts some renderer shows
/// and the rest less often (``Sampler/shownParts``), as i3status reads only what its
/// config names. Cheap when nothing changes: nothing under the loop's inotify watch
/// (``ChangeWatch``), else one `fstat` of the folder per sample; the
/// folder is listed again when its modification or change time moved, and every
/// ``rescanNs`` (a renderer killed without removing its file is dropped then: its pid is
/// gone) — under the watch, only when one of the renderers it counted is gone (a
/// `kill(pid, 0)` each then, not a listing). Hostile until checked: only regular files of this user named by a living pid,
/// at most ``RendererRequest/maximumFileSize`` bytes that parse, count; anything else is passed over.
final class RendererWants {
    /// How often the folder is listed even when it did not change.
    static let rescanNs: UInt64 = 30_000_000_000
    static let folderName = "wants"

    private let folderName = cPath(RendererWants.folderName)
    /// The runtime directory the folder was opened in (its descriptor), and the folder.
    private var directory: Int32 = -1
    private var folder: Int32 = -1
    private var lastTimes: (Int, Int, Int, Int, Int) = (-1, -1, -1, -1, -1)
    private var lastScanNs: UInt64 = 0
    /// The pids whose files the last listing read (up to ``maximumKnown``; -1: more than that,
    /// or not listed yet): while the inotify watch reports no change, the periodic look is a
    /// `kill(pid, 0)` each, not a listing (16 system calls, each cold once in 30 s).
    private var known = [Int32](repeating: 0, count: RendererWants.maximumKnown)
    private var knownCount = -1
    static let maximumKnown = 8
    /// Listings of the folder since this was made (tests).
    private(set) var listings = 0
    /// What the files said at the last listing; nil when no renderer left one: then nothing
    /// is known and everything is measured every interval.
    private(set) var shown: SnapshotSections?
    /// The mounts, sensors and interfaces the living renderers' files name (their union,
    /// as of the last listing); ``namesChanged`` says when it differs from the one before.
    private(set) var named = RendererRequest(parts: [])
    /// Set by a listing that changed ``named``; cleared by the one who looked (``takeNamesChange()``).
    private(set) var namesChanged = false
    private let fileBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: RendererRequest.maximumFileSize, alignment: 8)
    /// When a living renderer was last seen (monotonic ns; 0: never): at a listing that found
    /// one, or a look that found every counted one still running (`--exit-when-unwatched`).
    private(set) var watchedNs: UInt64 = 0

    init() {}

    deinit {
        if folder >= 0 { close(folder) }
        fileBuffer.deallocate()
    }

    /// Whether ``named`` changed since the last call.
    func takeNamesChange() -> Bool {
        defer { namesChanged = false }
        return namesChanged
    }

    /// The parts the renderers show now (nil: unknown, measure everything), from the folder
    /// `wants` in `runtime` (the snapshot writer's directory, checked by it: the folder is
    /// made and opened relative to that descriptor, never through a path that may have
    /// been replaced), created 0700 if missing.
    /// With `changes` (the loop's inotify watch on the folder), a sample where nothing
    /// changed costs no system call at all.
    func update(in runtime: FileDescriptor, monotonicNs: UInt64, changes: ChangeWatch? = nil) -> SnapshotSections? {
        if let changes, runtime.rawValue == directory, folder >= 0, lastScanNs != 0,
           !changes.takeWantsChange(folder: folder) {
            if monotonicNs &- lastScanNs < RendererWants.rescanNs { return shown }
            // Nothing changed in the folder: only a renderer killed without removing its
            // file can have made the union stale.
            if knownAlive() {
                lastScanNs = max(monotonicNs, 1)
                if shown != nil { watchedNs = monotonicNs }
                return shown
            }
        }
        var info = stat()
        if runtime.rawValue != directory || folder < 0 || fstat(folder, &info) != 0 || info.st_nlink == 0 {
            // First call, or the runtime directory was re-created: the folder too.
            directory = runtime.rawValue
            reopen()
            guard folder >= 0, fstat(folder, &info) == 0 else { shown = nil; return nil }
            lastScanNs = 0
        }
        // The times are as coarse as the kernel's tick; the size (tmpfs counts entries) helps.
        let times = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec, Int(info.st_size))
        if times != lastTimes || lastScanNs == 0 || monotonicNs &- lastScanNs >= RendererWants.rescanNs {
            lastTimes = times
            lastScanNs = max(monotonicNs, 1)
            shown = scan()
            if shown != nil { watchedNs = monotonicNs }
        }
        return shown
    }

    private func reopen() {
        if folder >= 0 { close(folder); folder = -1 }
        _ = folderName.withUnsafeBufferPointer { mkdirat(directory, $0.baseAddress!, 0o700) }
        let fd = folderName.withUnsafeBufferPointer {
            clibc_openat(directory, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0)
        }
        guard fd >= 0 else { return }
        var info = stat()
        // Ours and private, like the runtime directory itself.
        guard fstat(fd, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            close(fd)
            return
        }
        folder = fd
    }

    /// Whether every renderer the last listing counted is still running (false when they
    /// were more than ``maximumKnown``, or not listed yet).
    private func knownAlive() -> Bool {
        guard knownCount >= 0 else { return false }
        for i in 0..<knownCount where kill(known[i], 0) != 0 && clibc_errno() == ESRCH { return false }
        return true
    }

    /// Lists the folder: the union of what the living renderers' files say; nil if none says
    /// anything. A file whose pid is gone is removed.
    private func scan() -> SnapshotSections? {
        listings += 1
        knownCount = -1
        var count = 0
        let listing = dup(folder)
        guard listing >= 0, let stream = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            return nil
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var union: SnapshotSections?
        var names = RendererRequest(parts: [])
        let nameOffset = clibc_dirent_name_offset()
        while let entry = readdir(stream) {
            let name = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self)
            guard let pid = processID(UnsafeRawBufferPointer(start: name, count: strlen(name))) else { continue }
            if kill(pid, 0) != 0 && clibc_errno() == ESRCH {
                unlinkat(folder, name, 0)
                continue
            }
            if let request = read(name) {
                union = (union ?? []).union(request.parts)
                if !request.namesNothing { names.merge(request) }
                if count < RendererWants.maximumKnown { known[count] = pid }
                count += 1
            }
        }
        knownCount = count <= RendererWants.maximumKnown ? count : -1
        if names != named {
            named = names
            namesChanged = true
        }
        return union
    }

    /// What one renderer's file says, or nil if it is not a small regular file of ours that parses.
    private func read(_ name: UnsafePointer<CChar>) -> RendererRequest? {
        let fd = clibc_openat(folder, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & CLIBC_S_IFMT == CLIBC_S_IFREG, info.st_uid == geteuid(),
              info.st_size <= RendererRequest.maximumFileSize else { return nil }
        let count = pread(fd, fileBuffer.baseAddress, fileBuffer.count, 0)
        guard count > 0 else { return nil }
        return RendererRequest(wantsFile: UnsafeRawBufferPointer(rebasing: fileBuffer[0..<count]))
    }
}
