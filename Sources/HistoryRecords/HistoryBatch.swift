import SnapshotCodec

/// What the sampler hands to the history writer (`sysstatsd-history`) on its stdin:
/// the boot it runs in, rows to append, and whether this is the clean end.
///
/// Encoding (little-endian, version 5):
///
///     "SSHB" u16 version, u16 flags (bit 0: endsCleanly), u32 length of the rest
///     bootID: u16 length + UTF-8 bytes (at most 64)
///     u64 bootTime, u64 uptimeSeconds, u64 nowSeconds
///     u8 listed column count C (at most 16), then each column's name: u8 length (1–32) + bytes
///     u32 sample count, then each sample (91 + 9 × C bytes):
///       u64 minute, u32 cpuAverage, u32 cpuMaximum, u64 memoryUsedKiB, u64 memoryAvailableKiB,
///       u64 swapUsedKiB, u32 load1, u32 processCount,
///       u8 presence (bit 0 batteryPercent, bit 1 batteryState, bit 2 isHourly,
///                    bit 3 rxBytes, bit 4 txBytes, bit 5 cpuTemperatureMilliCelsius,
///                    bit 6 rootUsedPermyriad),
///       u32 batteryPercent, u8 batteryState,
///       u64 rxBytes, u64 txBytes, i32 cpuTemperatureMilliCelsius (two's complement),
///       u32 rootUsedPermyriad,
///       u8 more presence (bit 0 gpuBusyPermyriad, bit 1 vramUsedBytes),
///       u32 gpuBusyPermyriad, u64 vramUsedBytes,
///       per listed column: u8 given (0 or 1), i64 value
///     u32 exit count, then each exit:
///       u64 timeMs, u32 pid, u64 lastPrivateKiB, u64 freedKiB,
///       u32 name length + bytes (any bytes, at most 4096),
///       u32 friendlyName length + UTF-8 bytes (0xFFFF_FFFF: none; at most 4096)
///     u32 unit row count (``UnitMinute``), then each (38 bytes and the two names):
///       u64 minute, u32 cpuPermyriad, u64 memoryBytes, u64 readBytesPerSecond,
///       u64 writeBytesPerSecond, u8 name length (1–128) + bytes, u8 kind length (0–16) + bytes
///
/// A field whose presence bit is clear is written as 0 and ignored on reading. A sample's
/// figures, their widths, versions and presence bits are ``MinuteFigure/all``'s.
///
/// The listed columns are named (``ListedHistory/columns``' names): a reader keeps those its
/// build has and skips the others, so a sampler and a writer of different builds agree.
///
/// Versions 1 to 3 are read too: a sampler still running from before an upgrade hands its
/// batches to the new writer. Version 1's samples are 54 bytes, end after batteryState and
/// have presence bits 0–2 only; version 2's are 78 bytes and end after rootUsedPermyriad;
/// version 3 has no listed columns (nor their count); the newer figures are nil; version 4
/// has no unit rows (nor their count). ``encode(into:)`` writes version 5.
///
/// ``decode(_:)`` checks every count and length against the bytes left before it
/// allocates, so garbage, truncation and oversize are refused without crashing.
public struct HistoryBatch: Equatable, Sendable {
    public var bootID: String
    public var bootTime: UInt64
    public var uptimeSeconds: UInt64
    public var nowSeconds: UInt64
    public var samples: [MinuteSample]
    public var exits: [ExitRecord]
    /// The busiest units of the minutes of ``samples`` (`history --units`).
    public var units: [UnitMinute]
    /// The sampler stopped cleanly: the writer marks the boot clean after storing the rows.
    public var endsCleanly: Bool

    public init(bootID: String, bootTime: UInt64, uptimeSeconds: UInt64, nowSeconds: UInt64,
                samples: [MinuteSample], exits: [ExitRecord], units: [UnitMinute] = [], endsCleanly: Bool) {
        self.bootID = bootID
        self.bootTime = bootTime
        self.uptimeSeconds = uptimeSeconds
        self.nowSeconds = nowSeconds
        self.samples = samples
        self.exits = exits
        self.units = units
        self.endsCleanly = endsCleanly
    }

    public static let magic: [UInt8] = [0x53, 0x53, 0x48, 0x42]  // "SSHB" (not `Array(_.utf8)`: CPath.swift)
    /// The version ``encode(into:)`` writes; ``decode(_:)`` reads it and every one before.
    public static let version: UInt16 = 5
    /// The oldest version ``decode(_:)`` reads.
    public static let oldestReadableVersion: UInt16 = 1
    /// The most listed columns a batch may name, and the longest name.
    public static let maximumListedColumns = 16
    static let maximumColumnNameBytes = 32
    /// Bytes before the payload: magic, version, flags, length.
    public static let headerSize = 12
    /// A day of minutes.
    public static let maximumSamples = 1440
    public static let maximumExits = 10_000
    /// A day of minutes' unit rows, eight a minute.
    public static let maximumUnitRows = 1440 * 8
    public static let maximumNameBytes = 4096
    public static let maximumBootIDBytes = 64
    /// The largest whole encoding accepted.
    public static let maximumEncodedBytes = 4 << 20

    /// Appends the encoding to `bytes`. Counts and lengths past the limits are clipped
    /// (extra samples, exits and name bytes are left out) so the result always decodes.
    public func encode(into bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: HistoryBatch.magic)
        bytes.appendLE(HistoryBatch.version)
        bytes.appendLE(UInt16(endsCleanly ? 1 : 0))
        bytes.appendLE(UInt32(0))   // length, patched below
        let id = Array(bootID.utf8.prefix(HistoryBatch.maximumBootIDBytes))
        bytes.appendLE(UInt16(id.count))
        bytes.append(contentsOf: id)
        bytes.appendLE(bootTime)
        bytes.appendLE(uptimeSeconds)
        bytes.appendLE(nowSeconds)
        let listed = min(ListedHistory.columns.count, ListedHistory.maximumColumns)
        bytes.append(UInt8(listed))
        for i in 0..<listed {
            let name = ListedHistory.columns[i].history.column
            bytes.append(UInt8(name.utf8CodeUnitCount))
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        let sampleSlice = samples.prefix(HistoryBatch.maximumSamples)
        bytes.appendLE(UInt32(sampleSlice.count))
        for s in sampleSlice {
            HistoryBatch.encodeFigures(s, into: &bytes)
            for i in 0..<listed {
                bytes.append(s.listed[i] != nil ? 1 : 0)
                bytes.appendLE(UInt64(bitPattern: s.listed[i] ?? 0))
            }
        }
        let exitSlice = exits.prefix(HistoryBatch.maximumExits)
        bytes.appendLE(UInt32(exitSlice.count))
        for e in exitSlice {
            bytes.appendLE(e.timeMs)
            bytes.appendLE(e.pid)
            bytes.appendLE(e.lastPrivateKiB)
            bytes.appendLE(e.freedKiB)
            let name = e.name.prefix(HistoryBatch.maximumNameBytes)
            bytes.appendLE(UInt32(name.count))
            bytes.append(contentsOf: name)
            if let friendly = e.friendlyName {
                let f = Array(friendly.utf8.prefix(HistoryBatch.maximumNameBytes))
                bytes.appendLE(UInt32(f.count))
                bytes.append(contentsOf: f)
            } else {
                bytes.appendLE(UInt32.max)
            }
        }
        encodeUnits(into: &bytes)
        let length = UInt32(bytes.count - start - HistoryBatch.headerSize)
        for i in 0..<4 { bytes[start + 8 + i] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(i))) }
    }

    /// The encoding as a new array.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    /// Decodes exactly one batch: `bytes` must hold it and nothing more.
    public static func decode(_ bytes: [UInt8]) throws(HistoryBatchError) -> HistoryBatch {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(HistoryBatchError) -> HistoryBatch in try decode(raw) }
        }
        return try result.get()
    }

    /// Decodes exactly one batch: `bytes` must hold it and nothing more.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(HistoryBatchError) -> HistoryBatch {
        guard bytes.count >= 4 else { throw .truncated }
        guard bytes[0] == magic[0], bytes[1] == magic[1], bytes[2] == magic[2], bytes[3] == magic[3] else { throw .badMagic }
        guard bytes.count <= maximumEncodedBytes else { throw .oversize }
        var r = ByteReader<HistoryBatchError>(bytes, shortage: .truncated, overrun: .truncated)
        r.offset = 4
        let version = try r.u16()
        guard version >= oldestReadableVersion, version <= HistoryBatch.version else { throw .unsupportedVersion(version) }
        let flags = try r.u16()
        guard flags & ~1 == 0 else { throw .malformed("unknown flags") }
        let length = try r.u32()
        guard Int(length) <= maximumEncodedBytes - headerSize else { throw .oversize }
        guard bytes.count >= headerSize + Int(length) else { throw .truncated }
        guard bytes.count == headerSize + Int(length) else { throw .trailingBytes }

        let idLength = Int(try r.u16())
        guard idLength <= maximumBootIDBytes else { throw .malformed("boot id longer than \(maximumBootIDBytes) bytes") }
        let idBytes = try r.take(idLength)
        guard let bootID = String(validating: idBytes, as: UTF8.self) else { throw .malformed("boot id is not UTF-8") }
        let bootTime = try r.u64(), uptime = try r.u64(), now = try r.u64()
        // Each listed column of the batch: its position in this build's table, or nil (skipped).
        var listed: [Int?] = []
        if version >= 4 {
            let count = Int(try r.u8())
            guard count <= maximumListedColumns else { throw .malformed("more than \(maximumListedColumns) listed columns") }
            for _ in 0..<count {
                let length = Int(try r.u8())
                guard length >= 1, length <= maximumColumnNameBytes else { throw .malformed("a listed column's name is empty or too long") }
                listed.append(ListedHistory.index(ofColumn: try r.take(length)))
            }
        }

        let sampleCount = Int(try r.u32())
        guard sampleCount <= maximumSamples else { throw .tooManySamples(sampleCount) }
        guard sampleCount * sampleSize(version: version, listed: listed.count) <= r.remaining else { throw .truncated }
        var samples: [MinuteSample] = []
        samples.reserveCapacity(sampleCount)
        for _ in 0..<sampleCount {
            var sample = try decodeFigures(&r, version: version)
            for column in listed {
                let given = try r.u8(), value = Int64(bitPattern: try r.u64())
                guard given <= 1 else { throw .malformed("a listed figure's given flag is not 0 or 1") }
                if given == 1, let column {
                    let range = ListedHistory.columns[column].range
                    sample.listed[column] = min(max(value, range.lowerBound), range.upperBound)
                }
            }
            samples.append(sample)
        }

        let exitCount = Int(try r.u32())
        guard exitCount <= maximumExits else { throw .tooManyExits(exitCount) }
        guard exitCount * 36 <= r.remaining else { throw .truncated }
        var exits: [ExitRecord] = []
        exits.reserveCapacity(exitCount)
        for _ in 0..<exitCount {
            let timeMs = try r.u64(), pid = try r.u32(), lastPrivate = try r.u64(), freed = try r.u64()
            let nameLength = Int(try r.u32())
            guard nameLength <= maximumNameBytes else { throw .malformed("exit name longer than \(maximumNameBytes) bytes") }
            let name = Array(try r.take(nameLength))
            let friendlyLength = try r.u32()
            var friendly: String?
            if friendlyLength != UInt32.max {
                guard friendlyLength <= maximumNameBytes else { throw .malformed("friendly name longer than \(maximumNameBytes) bytes") }
                guard let text = String(validating: try r.take(Int(friendlyLength)), as: UTF8.self) else {
                    throw .malformed("friendly name is not UTF-8")
                }
                friendly = text
            }
            exits.append(ExitRecord(timeMs: timeMs, pid: pid, name: name, friendlyName: friendly,
                                    lastPrivateKiB: lastPrivate, freedKiB: freed))
        }
        let units = version >= 5 ? try decodeUnits(&r) : []
        guard r.remaining == 0 else { throw .trailingBytes }
        return HistoryBatch(bootID: bootID, bootTime: bootTime, uptimeSeconds: uptime, nowSeconds: now,
                            samples: samples, exits: exits, units: units, endsCleanly: flags & 1 != 0)
    }

}

/// Why bytes are not a ``HistoryBatch``.
public enum HistoryBatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not starting with "SSHB".
    case badMagic
    /// A version this build does not read.
    case unsupportedVersion(UInt16)
    /// The bytes end before the batch does.
    case truncated
    /// Bytes after the batch (its length field disagrees with what was given).
    case trailingBytes
    /// More than ``HistoryBatch/maximumEncodedBytes``.
    case oversize
    case tooManySamples(Int)
    case tooManyExits(Int)
    /// A field that cannot be: the reason.
    case malformed(String)

    public var description: String {
        switch self {
        case .badMagic: return "not a history batch (bad magic)"
        case .unsupportedVersion(let v):
            return "history batch version \(v) is not supported (this build reads \(HistoryBatch.oldestReadableVersion) to \(HistoryBatch.version))"
        case .truncated: return "history batch is truncated"
        case .trailingBytes: return "history batch has bytes after its end"
        case .oversize: return "history batch is over \(HistoryBatch.maximumEncodedBytes) bytes"
        case .tooManySamples(let n): return "history batch has \(n) samples (at most \(HistoryBatch.maximumSamples))"
        case .tooManyExits(let n): return "history batch has \(n) exits (at most \(HistoryBatch.maximumExits))"
        case .malformed(let why): return "malformed history batch: \(why)"
        }
    }
}
