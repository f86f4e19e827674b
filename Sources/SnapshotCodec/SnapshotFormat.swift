// Layout constants of the snapshot file, format v3 (v1 and v2 are still read). The
// byte-by-byte layout, the versioning rules and a worked example are in
// docs/snapshot-format.md.

/// Constants of the binary snapshot format.
///
/// A file is a fixed 32-byte header followed by the body. All integers are
/// little-endian. The header is:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `"SYSSTATS"` |
/// | 8 | 2 | format version (3; 2 and 1 are still read) |
/// | 10 | 2 | header length (32) |
/// | 12 | 4 | total length, header + body |
/// | 16 | 8 | sequence |
/// | 24 | 4 | CRC-32 (IEEE, as zlib's `crc32`) of the body |
/// | 28 | 4 | flags (0) |
public enum SnapshotFormat {
    /// The magic bytes `"SYSSTATS"` (53 59 53 53 54 41 54 53), read as a little-endian u64.
    public static let magic: UInt64 = 0x5354_4154_5353_5953
    /// The version this code writes, and the newest it reads.
    public static let version: UInt16 = 3
    /// The oldest version this code reads: v1 files (no iowait history) decode
    /// with an empty ``Snapshot/iowaitHistory``.
    public static let oldestReadableVersion: UInt16 = 1
    public static let headerLength = 32

    // Header field offsets.
    static let versionOffset = 8
    static let headerLengthOffset = 10
    static let totalLengthOffset = 12
    static let sequenceOffset = 16
    static let checksumOffset = 24
    static let flagsOffset = 28

    /// `memoryPressure == nil` is written as this value.
    public static let noPressure: UInt16 = 0xFFFF

    /// Body bytes that do not depend on counts: times, CPU, sampler, memory,
    /// pressure, load, processes, battery, urgent flags.
    public static let fixedBodyLength =
        8 + 4 + 8 + 8          // timestampMs, intervalMs, bootTime, uptimeCentiseconds
        + 2 + 2                // cpuBusy, cpuIOWait
        + 2 + 4                // samplerCPU, samplerResidentKiB
        + 10 * 8               // memory
        + 2                    // memoryPressure
        + 3 * 4 + 4 + 4        // load1/5/15, processCount, runningCount
        + 1 + 1 + 2 + 4 + 4    // battery
        + 4                    // urgent
    /// pid, cpu, privateKiB, name length; the name bytes follow.
    public static let processEntryFixedLength = 4 + 2 + 8 + 1
    /// pid, timeMs, lastPrivateKiB, freedKiB, name length; the name bytes follow.
    public static let exitEntryFixedLength = 4 + 8 + 8 + 8 + 1

    /// One history series at its limit: a u8 length and 60 u16 points.
    static let maximumHistorySize = 1 + 2 * Snapshot.historyLength

    /// The largest file a v1 encoder could produce (every count and name at its limit):
    /// 2705 bytes. Kept for the v1 golden file and the docs' size table.
    public static let maximumV1Size =
        headerLength + fixedBodyLength
        + 2 + 2 * Snapshot.maximumCores
        + 2 * maximumHistorySize
        + 2 * (1 + Snapshot.maximumTopEntries * (processEntryFixedLength + Snapshot.maximumNameLength))
        + 1 + Snapshot.maximumExits * (exitEntryFixedLength + Snapshot.maximumNameLength)

    /// The largest file a v2 encoder could produce: v1 plus the iowait history, 2826 bytes.
    public static let maximumV2Size = maximumV1Size + maximumHistorySize

    /// The largest file this encoder (v3) can produce: the header, then every section at
    /// its limits, each with its 8-byte section header.
    public static let maximumV3Size = headerLength + Int(SectionTag.highest.rawValue) * sectionHeaderLength + SectionTag.maximumPayloads

    /// The bound every reader enforces, on the total length field and on the
    /// buffer. Well above ``maximumV3Size`` so that later sections have room.
    public static let maximumEncodedSize = 16384

    /// A snapshot older than this many intervals is shown as stale…
    public static let staleAfterIntervals: UInt64 = 3
    /// …and never before this many milliseconds, so a short interval does not
    /// make one late wake-up flash "stale" on the bar.
    public static let staleMinimumMs: UInt64 = 5000
}

extension Snapshot {
    /// See ``SnapshotFormat/maximumEncodedSize``.
    public static let maximumEncodedSize = SnapshotFormat.maximumEncodedSize

    /// The age beyond which this snapshot is stale, ms: 3 intervals, at least 5 s.
    public var staleLimitMs: UInt64 {
        max(UInt64(intervalMs) * SnapshotFormat.staleAfterIntervals, SnapshotFormat.staleMinimumMs)
    }

    /// Milliseconds since the snapshot was taken; 0 when its timestamp is in the
    /// future (the clock stepped back).
    public func ageMs(nowMs: UInt64) -> UInt64 {
        nowMs > timestampMs ? nowMs - timestampMs : 0
    }

    /// Whether a renderer should show this snapshot as stale at `nowMs`
    /// (milliseconds since the epoch): older than ``staleLimitMs``.
    public func isStale(nowMs: UInt64) -> Bool {
        ageMs(nowMs: nowMs) > staleLimitMs
    }

    /// Milliseconds from `nowMs` until this snapshot turns stale (0 when it already is),
    /// plus one so a poll timeout lands just after the limit.
    public func msUntilStale(nowMs: UInt64) -> UInt64 {
        let deadline = timestampMs &+ staleLimitMs &+ 1
        return deadline > nowMs ? deadline - nowMs : 0
    }
}
