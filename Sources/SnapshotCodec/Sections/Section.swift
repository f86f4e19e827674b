// Format v3: after the 32-byte header, the body is a run of sections, each
//     u16 tag, u16 version, u32 length, then `length` bytes of payload.
// A reader skips a tag it does not know, reads the fields it knows from the start of a
// payload and ignores the rest (a newer version of a section only appends fields), and
// treats a section that fails its own bounds checks as not available. One file per
// section in this folder: its fields, how it is written and how it is read.

/// The tag of each section. A number is never reused: a new part gets a new tag, and a
/// change that is not an append gets a new tag too.
public enum SectionTag: UInt16, Sendable, CaseIterable {
    /// Required: timestamp, interval, urgent flags.
    case meta = 1
    case uptime = 2
    case cpu = 3
    case memory = 4
    /// Absent when the kernel has no PSI.
    case pressure = 5
    case load = 6
    case processes = 7
    case battery = 8
    case top = 9
    case exits = 10
    case sampler = 11
    case network = 12
    case disks = 13
    case diskIO = 14
    case temperature = 15
    case frequency = 16
}

extension SectionTag {
    /// The part of ``Snapshot/available`` the section carries; nil for meta (required) and
    /// pressure (``Snapshot/memoryPressure`` is nil without it).
    var part: SnapshotSections? {
        switch self {
        case .meta, .pressure: nil
        case .uptime: .uptime
        case .cpu: .cpu
        case .memory: .memory
        case .load: .load
        case .processes: .processes
        case .battery: .battery
        case .top: .top
        case .exits: .exits
        case .sampler: .sampler
        case .network: .network
        case .disks: .disks
        case .diskIO: .diskIO
        case .temperature: .temperature
        case .frequency: .frequency
        }
    }
}

extension ByteReader where Failure == SnapshotDecodeError {
    /// A u8 count (at most `maximum`) and that many entries, each read by `entry` into an
    /// element of `array` — the existing ones reused (their arrays keep their capacity),
    /// `empty` appended when there are more.
    @inline(__always)
    mutating func list<T>(into array: inout [T], maximum: Int, empty: T,
                          _ entry: (inout SnapshotReader, inout T) throws(SnapshotDecodeError) -> Void) throws(SnapshotDecodeError) {
        let count = Int(try u8())
        guard count <= maximum else { throw .malformed(.countOverLimit) }
        if array.count > count { array.removeLast(array.count - count) }
        for i in 0..<count {
            if i == array.count { array.append(empty) }
            try entry(&self, &array[i])
        }
    }
}

/// Bytes in a section's header: tag, version, length.
public let sectionHeaderLength = 8
