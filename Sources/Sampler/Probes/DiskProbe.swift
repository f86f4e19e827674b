import CLibc
import CSamplerSys
import ProcFS
import SnapshotCodec

/// The space of each configured mount point (statvfs, as `df` computes it), read every few
/// seconds: space changes slowly, and it is one system call per mount. Each mount is
/// measured by a process of its own (`csamplersys_space_worker`, `sysstatsd-disk`): a file
/// system that does not answer (a hung NFS server, a stuck FUSE daemon) holds that process,
/// never the sampling loop, and its disk shows as not answering while everything else is
/// published.
struct DiskProbe {
    static let refreshMs: UInt64 = 5_000
    /// How long a sample waits for a mount's answer before it says "not answering".
    static let answerWaitMs = 200

    private let spaces: [SpaceWorker]
    /// Each mount point's path as the snapshot shows it (cut at its limit), made once.
    private let mountBytes: [[UInt8]]
    private var lastReadMs: UInt64 = 0
    private var measured = false

    init(mounts: [String]) {
        var spaces: [SpaceWorker] = [], mountBytes: [[UInt8]] = []
        for i in 0..<min(mounts.count, Snapshot.maximumDisks) {
            spaces.append(SpaceWorker(path: mounts[i]))
            var bytes = utf8Bytes(mounts[i])
            while bytes.count > Snapshot.maximumPathLength { bytes.removeLast() }
            mountBytes.append(bytes)
        }
        self.spaces = spaces
        self.mountBytes = mountBytes
    }

    mutating func sample(into s: inout Snapshot, realtimeMs: UInt64) {
        guard !spaces.isEmpty else { return }
        if lastReadMs == 0 || realtimeMs &- lastReadMs >= DiskProbe.refreshMs || realtimeMs < lastReadMs {
            lastReadMs = realtimeMs == 0 ? 1 : realtimeMs
            measured = false
            if s.disks.count > spaces.count { s.disks.removeLast(s.disks.count - spaces.count) }
            for i in spaces.indices {
                if i == s.disks.count { s.disks.append(DiskFigures()) }
                if s.disks[i].mount.isEmpty { s.disks[i].mount = mountBytes[i] }
                // A mount that cannot be measured (unreadable) stays listed with zeros: the
                // renderer shows it as n/a by its zero total; one whose path is not there, as
                // missing; one that did not answer, as not answering.
                switch spaces[i].measure() {
                case .notAnswering:
                    s.disks[i].markNotAnswering()
                    measured = true
                case .missing:
                    s.disks[i].markMissing()
                    measured = true
                case .failed:
                    s.disks[i].totalKiB = 0; s.disks[i].usedKiB = 0; s.disks[i].availableKiB = 0
                case .measured(let usage):
                    s.disks[i].totalKiB = usage.totalKiB
                    s.disks[i].usedKiB = usage.usedKiB
                    s.disks[i].availableKiB = usage.availableKiB
                    if usage.totalKiB > 0 { measured = true }
                }
            }
        }
        if measured { s.available.insert(.disks) }
    }
}

/// One mount point's statfs in a process of its own; in the caller's when none could be
/// started.
final class SpaceWorker {
    enum Outcome {
        case measured(FileSystemUsage)
        /// ENOENT, ENOTDIR: nothing at the path.
        case missing
        case failed
        /// Still in statfs after the wait, or since an earlier sample.
        case notAnswering
    }

    private let worker: OpaquePointer?
    private let inline: FileSystemSpace

    init(path: String) {
        inline = FileSystemSpace(path: path)
        // A path with a NUL cannot be measured (FileSystemSpace says so); no process for it.
        let bytes = cPath(path)
        let clean = bytes.firstIndex(of: 0) == bytes.count - 1
        worker = clean ? bytes.withUnsafeBufferPointer { csamplersys_space_worker_start($0.baseAddress!) } : nil
    }

    deinit { csamplersys_space_worker_stop(worker) }

    func measure() -> Outcome {
        guard let worker else {
            if let usage = inline.update() { return .measured(usage) }
            return inline.isMissing ? .missing : .failed
        }
        var answer = csamplersys_space()
        guard csamplersys_space_measure(worker, DiskProbe.answerWaitMs, &answer) == 0 else { return .notAnswering }
        if answer.error == ENOENT || answer.error == ENOTDIR { return .missing }
        guard answer.error == 0 else { return .failed }
        return .measured(FileSystemSpace.compute(blocks: answer.blocks, bfree: answer.bfree, bavail: answer.bavail, frsize: answer.frsize))
    }
}
