/// One interface's line of /proc/net/dev: its name and cumulative byte counters.
public struct NetInterfaceCounters: Equatable, Sendable {
    /// The name as the kernel printed it (raw bytes, at most 15: IFNAMSIZ − 1; longer is cut).
    public var name = FixedName()
    /// Bytes received and sent since the interface came up (they wrap or reset when it is re-created).
    public var rxBytes: UInt64 = 0
    public var txBytes: UInt64 = 0
    public init() {}
    public init(name: FixedName, rxBytes: UInt64, txBytes: UInt64) {
        self.name = name; self.rxBytes = rxBytes; self.txBytes = txBytes
    }
}

/// What /proc/net/dev says: up to ``NetDevReader/maximumInterfaces`` interfaces, in file order.
public struct NetDevStats: Equatable, Sendable {
    public var interfaces: [NetInterfaceCounters] = []
    /// Interfaces past the cap, counted but not kept.
    public var omittedCount: Int = 0
    public init() {}

    /// The interface called `name`, or nil.
    public func interface(named name: FixedName) -> NetInterfaceCounters? {
        // Indices, not `for entry in`: an unspecialized (debug) array iterator allocates.
        for i in 0..<interfaces.count where interfaces[i].name == name { return interfaces[i] }
        return nil
    }
}

/// Reads /proc/net/dev: two header lines, then one line per interface,
///
///     Inter-|   Receive                            ...|  Transmit
///      face |bytes    packets errs drop fifo frame ...|bytes    packets ...
///         lo:  123456     789    0    0    0     0 ...  123456     789 ...
///
/// `name:` followed by 16 counters (8 receive, 8 transmit); bytes are the 1st and the 9th.
/// The kernel pads names on the left and may print no blank after the colon.
public final class NetDevReader {
    /// The most interfaces kept per reading (a bar shows a few; containers and bridges add many).
    public static let maximumInterfaces = 16
    /// IFNAMSIZ − 1: the longest name the kernel gives an interface.
    public static let maximumNameLength = 15

    private let file: ProcFile
    /// The last successful reading.
    public private(set) var reading = NetDevStats()
    /// Filled by the next parse, then swapped with `reading`: both keep their capacity.
    private var scratch = NetDevStats()

    /// Prepares to read `<procRoot>/net/dev`; opens it on the first update. Never fails.
    public init(procRoot: String = "/proc") {
        file = ProcFile(joinPath(procRoot, "net/dev"))
        reading.interfaces.reserveCapacity(Self.maximumInterfaces)
        scratch.interfaces.reserveCapacity(Self.maximumInterfaces)
    }

    /// Re-reads /proc/net/dev into `buffer`; nil when unreadable or unparsable.
    ///
    /// Two `interfaces` arrays alternate, so a caller may keep the previous reading (for
    /// rates) without causing a copy; keeping two or more older readings makes the refill copy.
    public func update(_ buffer: ReadBuffer) -> NetDevStats? {
        guard case .success(let bytes) = file.read(into: buffer),
              Self.parse(bytes, into: &scratch) else { return nil }
        swap(&reading, &scratch)
        return reading
    }

    /// Parses the text of /proc/net/dev into `stats`, reusing its storage. False when the
    /// two header lines are missing or any interface line lacks its name or 16 counters.
    /// Counters too large for 64 bits saturate.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into stats: inout NetDevStats) -> Bool {
        stats.interfaces.removeAll(keepingCapacity: true)
        stats.omittedCount = 0
        var s = ByteScanner(bytes)
        for _ in 0..<2 {
            guard let nl = firstIndex(of: 0x0A, in: UnsafeRawBufferPointer(rebasing: bytes[s.position...])) else {
                return false
            }
            s.position += nl + 1
        }
        while !s.isAtEnd {
            s.skipBlanks()
            if s.current == 0x0A { s.position += 1; continue }  // a blank line
            if s.isAtEnd { break }
            let start = s.position
            // A valid name holds no colon, blank or slash (dev_valid_name): the first colon ends it.
            while let b = s.current, b != 0x3A, b != 0x0A { s.position += 1 }
            guard s.current == 0x3A, s.position > start else { return false }
            let name = UnsafeRawBufferPointer(rebasing: bytes[start..<s.position])
            s.position += 1
            var entry = NetInterfaceCounters()
            for field in 0..<16 {
                guard let value = s.unsigned() else { return false }
                if field == 0 { entry.rxBytes = value } else if field == 8 { entry.txBytes = value }
            }
            entry.name = FixedName(name, maximumCount: maximumNameLength)
            if stats.interfaces.count < maximumInterfaces {
                stats.interfaces.append(entry)
            } else {
                stats.omittedCount += 1
            }
            s.skipLine()
        }
        return true
    }
}
