import CLibc
import CDirect

/// The processes that hold DRM clients and what each used of the GPUs over the last
/// interval, for the sampler's list of the processes using the GPUs most (`top:gpu`).
///
/// Which processes hold one is found by listing their `fd` directories a few at a time
/// (`getdents64` and a `readlink` per descriptor), each process once every
/// ``rescanSamples`` updates: a process that opens a GPU shows within that many. The listing
/// is bounded: at most ``maximumDescriptorsPerProcess`` of a process's descriptors are looked
/// at, and at most ``descriptorsPerUpdate`` in one update, the rest carried on at the next
/// (sixty processes of 19,900 descriptors each stalled the first update for seconds). Between
/// two listings only the holders' DRM descriptors are read (their fdinfo, parsed by
/// ``DRMClientReading``), each client counted once however many descriptors share it. A
/// holder whose descriptors are all gone is dropped. Once the holders are known, an update
/// allocates nothing: every array is reserved once and reused (a holder's readings the first
/// time it has that many clients).
public final class DRMHolders {
    /// The most holders kept.
    public static let maximumHolders = 32
    /// Updates over which every process's descriptors are listed once.
    public static let rescanSamples = 30
    /// The most descriptors of one process looked at (a DRM client is opened early, so has a
    /// low number; the rest of a process holding tens of thousands costs nothing).
    public static let maximumDescriptorsPerProcess = 4096
    /// The most descriptors looked at (`readlink`s) in one update, over all processes listed.
    public static let descriptorsPerUpdate = 8192
    /// Descriptors looked at in the last update (tests).
    public private(set) var descriptorsLookedAt = 0
    /// This scanner's caps: ``maximumDescriptorsPerProcess`` and ``descriptorsPerUpdate``
    /// (smaller in tests).
    private let perProcess: Int, perUpdate: Int

    /// One process's use of the GPUs over the interval before the last update.
    public struct Use: Equatable, Sendable {
        public var pid: Int32 = 0
        /// Its busiest kind of engine's share of the interval, permyriad (0 at its first reading).
        public var busyPermyriad: UInt64 = 0
        /// Its clients' memory (device memory where the driver tells it apart), bytes.
        public var memoryBytes: UInt64 = 0
    }

    private final class Holder {
        var pid: Int32 = 0
        var fds: [Int32] = []
        /// The clients at the last and the reading before it; `count`s say how many are real.
        var clients: [DRMClientReading] = []
        var previous: [DRMClientReading] = []
        var count = 0, previousCount = 0
        var readAtNs: UInt64 = 0

        init() {
            fds.reserveCapacity(DRMClients.maximumPerProcess)
        }

        /// Slot `n` of ``clients``, made (with room for every engine) the first time a
        /// process has that many: the slots stay, so later readings reuse them.
        func slot(_ n: Int) {
            guard n == clients.count else { return }
            var empty = DRMClientReading()
            empty.engines.reserveCapacity(DRMClientReading.maximumEngines)
            clients.append(empty)
        }
    }

    private var path: BytePath
    private let rootLength: Int
    private var holders: [Holder] = []
    private var spare: [Holder] = []
    /// What the last update measured, one per holder, in holder order.
    public private(set) var uses: [Use] = []
    private var kinds: [DRMClients.EngineKind] = []
    private var entries: [UInt8]
    private var target: [CChar]
    private var found: [Int32] = []
    /// Where the next listing starts in the caller's process list.
    private var cursor = 0
    private var listed = false

    public init(procRoot: String, descriptorsPerProcess: Int = DRMHolders.maximumDescriptorsPerProcess,
                descriptorsPerUpdate: Int = DRMHolders.descriptorsPerUpdate) {
        perProcess = max(1, descriptorsPerProcess)
        perUpdate = max(perProcess, descriptorsPerUpdate)
        path = BytePath(procRoot)
        rootLength = path.count
        holders.reserveCapacity(Self.maximumHolders)
        spare.reserveCapacity(Self.maximumHolders)
        uses.reserveCapacity(Self.maximumHolders)
        kinds.reserveCapacity(DRMClients.maximumPerProcess * DRMClientReading.maximumEngines)
        entries = [UInt8](repeating: 0, count: 8192)
        target = [CChar](repeating: 0, count: 64)
        found.reserveCapacity(DRMClients.maximumPerProcess)
    }

    /// Lists the descriptors of the next share of `pids` (all of them at the first update),
    /// then reads every holder's clients at `monotonicNs` into ``uses``.
    public func update(pids: [Int32], monotonicNs: UInt64, buffer: ReadBuffer) {
        let share = listed ? max(1, (pids.count + Self.rescanSamples - 1) / Self.rescanSamples) : pids.count
        listed = true
        descriptorsLookedAt = 0
        var n = 0
        // A process is listed only while a whole one fits in what is left of the budget: the
        // one that does not waits at the cursor for the next update.
        while n < share && n < pids.count && perUpdate - descriptorsLookedAt >= perProcess {
            if cursor >= pids.count { cursor = 0 }
            let pid = pids[cursor]
            cursor += 1
            n += 1
            if holderIndex(pid) < 0 { list(pid) }
        }
        uses.removeAll(keepingCapacity: true)
        var i = 0
        while i < holders.count {
            if read(holders[i], monotonicNs, buffer) {
                i += 1
            } else {
                spare.append(holders.remove(at: i))
            }
        }
    }

    private func holderIndex(_ pid: Int32) -> Int {
        var i = 0
        while i < holders.count {
            if holders[i].pid == pid { return i }
            i += 1
        }
        return -1
    }

    /// Lists `pid`'s descriptors; one on a DRM device node (`/dev/dri/…`) makes it a holder.
    private func list(_ pid: Int32) {
        guard pid > 0, holders.count < Self.maximumHolders else { return }
        path.truncate(to: rootLength)
        path.append("/")
        path.append(decimal: Int(pid))
        path.append("/fd")
        let directory = path.withCString { clibc_open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK, 0) }
        guard directory >= 0 else { return }
        defer { close(directory) }
        let fdPath = path.count
        found.removeAll(keepingCapacity: true)
        var looked = 0
        while found.count < DRMClients.maximumPerProcess && looked < perProcess {
            let got = entries.withUnsafeMutableBytes { cdirect_getdents64(directory, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            var offset = 0
            while offset + 19 < got && found.count < DRMClients.maximumPerProcess && looked < perProcess {
                // struct linux_dirent64: ino u64, off i64, reclen u16, type u8, name (NUL-terminated).
                let length = Int(entries[offset + 16]) | Int(entries[offset + 17]) << 8
                guard length > 19, offset + length <= got else { break }
                if let fd = Self.decimal(entries, from: offset + 19, to: offset + length) {
                    looked &+= 1
                    if isDRM(fd, fdPath) { found.append(Int32(fd)) }
                }
                offset += length
            }
        }
        descriptorsLookedAt &+= looked
        guard !found.isEmpty else { return }
        let h = spare.popLast() ?? Holder()
        h.pid = pid
        h.fds.removeAll(keepingCapacity: true)
        var f = 0
        while f < found.count { h.fds.append(found[f]); f += 1 }
        h.count = 0; h.previousCount = 0; h.readAtNs = 0
        holders.append(h)
    }

    /// The descriptor number an entry's NUL-terminated name spells, nil for anything else.
    private static func decimal(_ bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        var value = 0, i = start
        while i < end && bytes[i] != 0 {
            guard bytes[i] >= 0x30, bytes[i] <= 0x39, value < 1 << 40 else { return nil }
            value = value * 10 + Int(bytes[i] - 0x30)
            i += 1
        }
        return i > start ? value : nil
    }

    /// Whether `fd` of the process whose `fd` directory `path` names (its first
    /// `fdPath` bytes) links to a DRM device node.
    private func isDRM(_ fd: Int, _ fdPath: Int) -> Bool {
        path.truncate(to: fdPath)
        path.append("/")
        path.append(decimal: fd)
        let n = path.withCString { p in target.withUnsafeMutableBufferPointer { readlink(p, $0.baseAddress!, $0.count) } }
        guard n >= 9 else { return false }
        let prefix: StaticString = "/dev/dri/"
        var i = 0
        while i < 9 {
            if UInt8(bitPattern: target[i]) != prefix.utf8Start[i] { return false }
            i += 1
        }
        return true
    }

    /// Reads `h`'s clients and appends its use; false when none of its descriptors is left.
    private func read(_ h: Holder, _ nowNs: UInt64, _ buffer: ReadBuffer) -> Bool {
        swap(&h.clients, &h.previous)
        h.previousCount = h.count
        h.count = 0
        path.truncate(to: rootLength)
        path.append("/")
        path.append(decimal: Int(h.pid))
        path.append("/fdinfo/")
        let base = path.count
        var kept = 0, f = 0
        while f < h.fds.count {
            path.truncate(to: base)
            path.append(decimal: Int(h.fds[f]))
            // A descriptor closed, or its number reused for something else, is dropped.
            if case .success(let bytes) = path.read(into: buffer), h.count < DRMClients.maximumPerProcess {
                h.slot(h.count)
                if DRMClientReading.parse(bytes, into: &h.clients[h.count]) {
                    h.fds[kept] = h.fds[f]
                    kept += 1
                    if !seen(h, h.count) { h.count += 1 }
                }
            }
            f += 1
        }
        while h.fds.count > kept { h.fds.removeLast() }
        guard kept > 0 else { return false }
        var use = Use()
        use.pid = h.pid
        var c = 0
        while c < h.count {
            let (sum, over) = use.memoryBytes.addingReportingOverflow(h.clients[c].memoryBytes)
            use.memoryBytes = over ? .max : sum
            c += 1
        }
        if h.readAtNs != 0, nowNs > h.readAtNs {
            use.busyPermyriad = DRMClients.busyPermyriad(before: h.previous, h.previousCount, after: h.clients, h.count,
                                                         elapsedNs: nowNs - h.readAtNs, kinds: &kinds)
        }
        h.readAtNs = nowNs
        uses.append(use)
        return true
    }

    /// Whether the client just read into slot `n` is one of the first `n` (two descriptors on one client).
    private func seen(_ h: Holder, _ n: Int) -> Bool {
        var i = 0
        while i < n {
            let a = h.clients[i], b = h.clients[n]
            if a.clientID == b.clientID && a.driver == b.driver && a.pdev == b.pdev { return true }
            i += 1
        }
        return false
    }
}
