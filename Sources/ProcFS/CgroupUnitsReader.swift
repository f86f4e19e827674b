import SnapshotCodec

/// Names a unit beyond ``UnitNaming``'s: the bookmark rules and the desktop files (the
/// sampler's, which holds the rules).
public protocol UnitNamer: AnyObject {
    /// Changes when the names would (the rules were loaded again): every unit is named anew.
    var generation: UInt32 { get }
    /// Writes the unit's name over `name` (UnitNaming's, for a unit of `kind`; `bare` the
    /// unit's own name unescaped, its app id at `appID`); leaves it where it has none better.
    func name(kind: UnitKind, bare: [UInt8], appID: Range<Int>?, name: inout [UInt8])
}

/// The units part (``UnitsPart``): the cgroup v2 tree's busiest units by CPU, then its
/// largest by memory, from the kernel's own counters (docs/metrics.md, "Units").
///
/// Its cost follows what changes, not how many units there are. A cgroup's `usage_usec`
/// counts its descendants', so each sample reads the few containers of units (the root, the
/// slices, a user's manager) and the units it shows, through descriptors kept open; a
/// container whose CPU its units read this sample do not explain reads its other units
/// (a unit that got busy leads within two samples). Memory is read the same way: a container's
/// units again when its `memory.current` moved by more than the smallest shown. The tree is
/// listed again when the root's `cgroup.stat` counts a cgroup more or less, or a shown unit is
/// gone; each unit's slower figures (memory.stat, io.stat, pids, pressure) every few samples.
public final class CgroupUnitsReader: PartReader {
    /// A folder of the tree: a unit, or a container of units.
    struct Node {
        /// Below the tree's root (`user.slice/user-1000.slice/…/app-firefox-1234.scope`); empty for the root.
        var path: [UInt8]
        let parent: Int
        let isUnit: Bool
        var kind = UnitKind.system
        var name: [UInt8] = []
        /// `usage_usec` and when it was read (0: never), the sample it was read at, and the
        /// share of one core (permyriad) between its last two reads.
        var cpuUsec: UInt64 = 0
        var cpuAtNs: UInt64 = 0
        var cpuSample: UInt64 = 0
        var cpuPermyriad: UInt64 = 0
        var memoryBytes: UInt64?
        /// Whether its memory was read since it was listed.
        var memoryRead = false
        /// A container's: its `memory.current` when its units' own were last read.
        var memoryAtUnitsRead: UInt64?
        /// A container's kept files.
        var cpuFile: ProcFile?
        var memoryFile: ProcFile?
    }

    /// A shown unit's kept files and its slower figures.
    struct Shown {
        let node: Int
        let files: [ProcFile]
        var anon: UInt64?, file: UInt64?, tasks: UInt64?, pressure: UInt64?
        var readBytes: UInt64?, writtenBytes: UInt64?, ioAtNs: UInt64 = 0
        var readRate: UInt64?, writeRate: UInt64?
        var slowSample: UInt64 = 0
    }

    let root: String?
    let namer: UnitNamer?
    let kept: [[UInt8]]
    /// The namer's generation the units were named in.
    var namedGeneration: UInt32 = 0
    var nodes: [Node] = []
    var shown: [Shown] = []
    /// The root's `cgroup.stat` (its descendants, live and dying) at the last listing.
    let rootStat: ProcFile?
    var listedCounts: (UInt64, UInt64)?
    var listAgain = true
    var sample: UInt64 = 0
    /// Scratch, reserved once: the ranking's picks, per container the CPU its units read
    /// this sample explain, a path being made.
    var picks: [Int] = []
    var explained: [UInt64] = []
    var path = BytePath()
    let rootLength: Int

    /// The units shown: at most this many by CPU, then by memory up to the part's limit.
    static let busiestShown = 4
    /// Below this share of one core a container's unexplained CPU reads no unit (permyriad).
    static let leastUnexplainedPermyriad: UInt64 = 50
    /// A container's units' memory is read again when it moved by this much at least.
    static let leastMemoryMove: UInt64 = 8 << 20
    /// The slower figures every this many samples.
    static let slowEverySamples: UInt64 = 5
    /// Every unit's memory is read again this often, whatever its container says.
    static let memoryEverySamples: UInt64 = 60
    /// The most containers kept open (two descriptors each).
    static let maximumContainers = 64

    /// `kept`: units kept first whatever their figures, by the name the part gives them or
    /// their own (`docker-3f2a….scope`): the configuration's (`[sampler] units`).
    public init(sysRoot: String, namer: UnitNamer? = nil, kept: [String] = []) {
        self.namer = namer
        self.kept = kept.map { Array($0.utf8) }
        root = CgroupUnits.root(sysRoot: sysRoot)
        rootStat = root.map { ProcFile($0 + "/cgroup.stat") }
        path = BytePath(root ?? "")
        rootLength = path.count
        path.append("/a-unit-folder-name-of-this-length-is-already-a-long-one.scope/memory.current")
        picks.reserveCapacity(UnitsPart.part.maximumReadings + 1)
        shown.reserveCapacity(UnitsPart.part.maximumReadings)
    }

    /// False on a host without a cgroup v2 tree: the blocks say `n/a` (no line in the log,
    /// which would say it on every such host whether or not a bar shows a unit; `sysstats
    /// top --units` says why).
    public func read(into snapshot: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64) -> Bool {
        guard let root else { return false }
        sample &+= 1
        if let stat = rootStat, case .success(let bytes) = stat.read(into: buffer) {
            let counts = (CgroupUnits.keyedValue(bytes, "nr_descendants") ?? 0, CgroupUnits.keyedValue(bytes, "nr_dying_descendants") ?? 0)
            if listedCounts.map({ $0 != counts }) ?? true { listAgain = true; listedCounts = counts }
        }
        if listAgain { list(root, buffer) }
        if let namer, namer.generation != namedGeneration { nameUnits() }
        readContainersAndShown(buffer, monotonicNs)
        readUnexplained(buffer, monotonicNs)
        rank()
        readSlowFigures(buffer, monotonicNs)
        snapshot.listed.update(.units) { list in
            for i in 0..<shown.count {
                if i == list.count { list.append(PartReading()) }
                fill(&list[i], shown[i])
            }
            if list.count > shown.count { list.removeLast(list.count &- shown.count) }
        }
        return true
    }

    /// Reads the containers' and the shown units' CPU and memory through their kept files.
    func readContainersAndShown(_ buffer: ReadBuffer, _ now: UInt64) {
        for i in 0..<nodes.count where !nodes[i].isUnit {
            if let f = nodes[i].cpuFile, case .success(let b) = f.read(into: buffer) { account(i, CgroupUnits.keyedValue(b, "usage_usec"), now) }
            if let f = nodes[i].memoryFile, case .success(let b) = f.read(into: buffer) { nodes[i].memoryBytes = parseUnsignedLine(b) }
        }
        for s in 0..<shown.count {
            let n = shown[s].node
            if case .success(let b) = shown[s].files[0].read(into: buffer) {
                account(n, CgroupUnits.keyedValue(b, "usage_usec"), now)
            } else {
                listAgain = true   // gone (its files answer ENODEV)
            }
            if case .success(let b) = shown[s].files[1].read(into: buffer) { nodes[n].memoryBytes = parseUnsignedLine(b) }
        }
    }

    /// Takes a `usage_usec` reading of node `i`: its share of one core since its last one.
    func account(_ i: Int, _ usec: UInt64?, _ now: UInt64) {
        guard let usec else { return }
        let node = nodes[i]
        if node.cpuAtNs > 0, now > node.cpuAtNs, usec >= node.cpuUsec {
            // Δµs over Δns as hundredths of a percent of one core: Δµs × 10⁷ / Δns.
            let (high, low) = (usec - node.cpuUsec).multipliedFullWidth(by: 10_000_000)
            let span = now - node.cpuAtNs
            nodes[i].cpuPermyriad = high < span ? span.dividingFullWidth((high, low)).quotient : .max
        } else {
            nodes[i].cpuPermyriad = 0
        }
        nodes[i].cpuUsec = usec
        nodes[i].cpuAtNs = now
        nodes[i].cpuSample = sample
    }

    /// A container whose CPU (or memory) its units read this sample leave unexplained by more
    /// than the least a shown unit has: its other units are read.
    func readUnexplained(_ buffer: ReadBuffer, _ now: UInt64) {
        while explained.count < nodes.count { explained.append(0) }
        for i in 0..<nodes.count { explained[i] = 0 }
        for i in 0..<nodes.count where nodes[i].parent >= 0 && nodes[i].cpuSample == sample {
            explained[nodes[i].parent] = explained[nodes[i].parent].addingSaturated(nodes[i].cpuPermyriad)
        }
        let cpuBar = max(Self.leastUnexplainedPermyriad, leastShownCPU())
        let memoryBar = max(Self.leastMemoryMove, leastShownMemory())
        for i in 0..<nodes.count where nodes[i].isUnit && nodes[i].parent >= 0 {
            let c = nodes[i].parent
            let container = nodes[c]
            let cpu = container.cpuSample == sample && container.cpuPermyriad > explained[c] &+ cpuBar
            // A container without memory.current (the root): its units' memory every minute or so.
            var moved = !nodes[i].memoryRead || sample % Self.memoryEverySamples == 0
            if !moved, let m = container.memoryBytes { moved = Self.moved(m, since: container.memoryAtUnitsRead, by: memoryBar) }
            if cpu && nodes[i].cpuSample != sample {
                unitFile(i, "/cpu.stat")
                if case .success(let b) = path.read(into: buffer) { account(i, CgroupUnits.keyedValue(b, "usage_usec"), now) }
            }
            if moved {
                unitFile(i, "/memory.current")
                if case .success(let b) = path.read(into: buffer) { nodes[i].memoryBytes = parseUnsignedLine(b) }
                nodes[i].memoryRead = true
            }
        }
        for i in 0..<nodes.count where !nodes[i].isUnit {
            if let m = nodes[i].memoryBytes, Self.moved(m, since: nodes[i].memoryAtUnitsRead, by: memoryBar) { nodes[i].memoryAtUnitsRead = m }
        }
    }

    /// Whether `now` is more than `bar` from `then` (or there is no `then`).
    static func moved(_ now: UInt64, since then: UInt64?, by bar: UInt64) -> Bool {
        guard let then else { return true }
        return now > then &+ bar || then > now &+ bar
    }

    /// The path of unit `i`'s file `name`, in ``path``.
    func unitFile(_ i: Int, _ name: StaticString) {
        path.truncate(to: rootLength)
        path.append(byte: 0x2F)
        nodes[i].path.withUnsafeBytes { path.append($0) }
        path.append(name)
    }

    func leastShownCPU() -> UInt64 {
        guard shown.count >= Self.busiestShown else { return 0 }
        var least = UInt64.max
        // Indices, not `for s in`: an unspecialized (debug) array iterator allocates.
        for s in 0..<shown.count where nodes[shown[s].node].cpuSample == sample { least = min(least, nodes[shown[s].node].cpuPermyriad) }
        return least == .max ? 0 : least
    }

    func leastShownMemory() -> UInt64 {
        var least = UInt64.max
        for s in 0..<shown.count { least = min(least, nodes[shown[s].node].memoryBytes ?? 0) }
        return least == .max ? 0 : least / 4
    }
}
