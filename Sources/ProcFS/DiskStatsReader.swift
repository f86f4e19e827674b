import CLibc

/// One disk's cumulative traffic from /proc/diskstats.
public struct DiskCounters: Equatable, Sendable {
    /// The device name as /proc/diskstats has it (`sda`, `nvme0n1`; raw bytes, cut at 31).
    public var name = FixedName()
    /// Bytes read and written since boot: sectors × 512 (the file counts 512-byte
    /// sectors whatever the device's own sector size), saturating.
    public var readBytes: UInt64 = 0
    public var writtenBytes: UInt64 = 0
    public init() {}
    public init(name: FixedName, readBytes: UInt64, writtenBytes: UInt64) {
        self.name = name; self.readBytes = readBytes; self.writtenBytes = writtenBytes
    }
}

/// The tracked disks found in this read of /proc/diskstats, in file order.
public struct DiskStats: Equatable, Sendable {
    public var disks: [DiskCounters] = []
    public init() {}

    /// The disk called `name`, or nil.
    public func disk(named name: FixedName) -> DiskCounters? {
        // Indices, not `for entry in`: an unspecialized (debug) array iterator allocates.
        for i in 0..<disks.count where disks[i].name == name { return disks[i] }
        return nil
    }
}

/// Reads /proc/diskstats for whole disks:
///
///     major minor name reads merged sectors-read ms writes merged sectors-written ms …
///
/// 14 fields up to Linux 4.18, 18 with the discard counters, 20 with flushes (5.5);
/// only fields 6 and 10 are used. The file lists partitions, loop and ram devices,
/// device-mapper volumes: which lines count is decided once, at `init` and
/// ``rescan(_:)``, not per update — a device counts when `<sysRoot>/block/<name>`
/// exists (whole disks and dm/md volumes, not partitions) and its name does not
/// start with an excluded prefix. Hotplugged disks appear at the next `rescan`.
public final class DiskStatsReader {
    /// The most disks tracked.
    public static let maximumDisks = 8
    /// Devices that are not disks people watch: loop and ram disks, zram swap, floppies, optical drives.
    public static let defaultExcludedPrefixes = ["loop", "ram", "zram", "fd", "sr"]

    private let file: ProcFile
    /// `<sysRoot>/block`, as bytes: each candidate's path is built on it at a scan.
    private var blockDirectory: BytePath
    private let excludedPrefixes: [[UInt8]]
    private let requestedNames: [FixedName]
    /// The devices whose lines are reported, decided by the last scan.
    public private(set) var devices: [FixedName] = []
    /// The last successful reading.
    public private(set) var reading = DiskStats()
    private var scratch = DiskStats()

    /// Prepares to read `<procRoot>/diskstats` and chooses its disks (see ``rescan(_:)``).
    /// - Parameters:
    ///   - names: when not empty, exactly these devices (at most 8; a partition may be
    ///     named), without the `<sysRoot>/block` test or the prefixes.
    ///   - excludedPrefixes: names starting with one of these are never chosen automatically.
    public init(procRoot: String = "/proc", sysRoot: String = "/sys", names: [String] = [],
                excludedPrefixes: [String] = DiskStatsReader.defaultExcludedPrefixes) {
        file = ProcFile(joinPath(procRoot, "diskstats"))
        blockDirectory = BytePath(sysRoot)
        blockDirectory.append("/block")
        var prefixes: [[UInt8]] = []
        for i in 0..<excludedPrefixes.count { prefixes.append(utf8Bytes(excludedPrefixes[i])) }
        self.excludedPrefixes = prefixes
        var requested: [FixedName] = []
        for i in 0..<min(names.count, Self.maximumDisks) { requested.append(FixedName(names[i])) }
        requestedNames = requested
        devices.reserveCapacity(Self.maximumDisks)
        reading.disks.reserveCapacity(Self.maximumDisks)
        scratch.disks.reserveCapacity(Self.maximumDisks)
        rescan(ReadBuffer(capacity: 4096))
    }

    /// Chooses the devices again: with names given at init, those; otherwise the first
    /// eight in /proc/diskstats that are whole disks. Allocates (paths): call it rarely.
    public func rescan(_ buffer: ReadBuffer) {
        devices.removeAll(keepingCapacity: true)
        if !requestedNames.isEmpty {
            devices.append(contentsOf: requestedNames)
            return
        }
        guard case .success(let bytes) = file.read(into: buffer) else { return }
        var s = ByteScanner(bytes)
        while !s.isAtEnd && devices.count < Self.maximumDisks {
            if s.unsigned() != nil, s.unsigned() != nil, let name = s.word(), isWholeDisk(name) {
                let fixed = FixedName(name)
                if !devices.contains(fixed) { devices.append(fixed) }
            }
            s.skipLine()
        }
    }

    private func isWholeDisk(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.count <= FixedName.capacity else { return false }
        for p in 0..<excludedPrefixes.count where name.count >= excludedPrefixes[p].count {
            var matches = true
            for i in 0..<excludedPrefixes[p].count where name[i] != excludedPrefixes[p][i] { matches = false; break }
            if matches { return false }
        }
        // A dot-only name would leave the directory, and a NUL or a control byte would
        // cut or garble the path: none names a disk.
        if name.count == 1 && name[0] == 0x2E { return false }
        if name.count == 2 && name[0] == 0x2E && name[1] == 0x2E { return false }
        let directoryLength = blockDirectory.count
        defer { blockDirectory.truncate(to: directoryLength) }
        blockDirectory.append("/")
        for i in 0..<name.count {
            let b = name[i]
            if b < 0x20 || b == 0x7F { return false }
            // sysfs spells a slash in a device name (cciss/c0d0) as "!".
            blockDirectory.append(byte: b == 0x2F ? 0x21 : b)
        }
        return blockDirectory.exists()
    }

    /// Re-reads /proc/diskstats into `buffer`: the chosen devices present in the file.
    /// Nil when unreadable or when any line is malformed (fewer than 14 fields).
    /// Two `disks` arrays alternate, as in ``NetDevReader/update(_:)``.
    public func update(_ buffer: ReadBuffer) -> DiskStats? {
        guard case .success(let bytes) = file.read(into: buffer),
              Self.parse(bytes, devices: devices, into: &scratch) else { return nil }
        swap(&reading, &scratch)
        return reading
    }

    /// Parses /proc/diskstats into `stats`, keeping the lines of `devices` (first line per
    /// name). False when a non-empty line lacks major, minor, name and 11 counters.
    public static func parse(_ bytes: UnsafeRawBufferPointer, devices: [FixedName],
                             into stats: inout DiskStats) -> Bool {
        stats.disks.removeAll(keepingCapacity: true)
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            s.skipBlanks()
            if s.current == 0x0A { s.position += 1; continue }
            if s.isAtEnd { break }
            guard s.unsigned() != nil, s.unsigned() != nil, let name = s.word() else { return false }
            var sectorsRead: UInt64 = 0, sectorsWritten: UInt64 = 0
            for field in 4..<15 {
                guard let value = s.unsigned() else { return false }
                if field == 6 { sectorsRead = value } else if field == 10 { sectorsWritten = value }
            }
            s.skipLine()
            guard name.count <= FixedName.capacity, isTracked(name, devices), !isListed(name, stats) else { continue }
            stats.disks.append(DiskCounters(name: FixedName(name),
                                            readBytes: saturatingProduct(sectorsRead, 512),
                                            writtenBytes: saturatingProduct(sectorsWritten, 512)))
        }
        return true
    }

    private static func isTracked(_ name: UnsafeRawBufferPointer, _ devices: [FixedName]) -> Bool {
        for i in 0..<devices.count where devices[i].equals(name) { return true }
        return false
    }

    private static func isListed(_ name: UnsafeRawBufferPointer, _ stats: DiskStats) -> Bool {
        for i in 0..<stats.disks.count where stats.disks[i].name.equals(name) { return true }
        return false
    }
}
