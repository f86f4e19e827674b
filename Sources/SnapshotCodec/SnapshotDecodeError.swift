// Why a snapshot file was rejected. Every kind of damage has its own case so
// that a renderer (and a test) can tell them apart.

public enum SnapshotDecodeError: Error, Equatable, Sendable {
    /// The buffer is shorter than the header, or than the header's total length.
    case truncated
    /// The first 8 bytes are not `"SYSSTATS"`.
    case badMagic
    /// A format version this reader does not know.
    case unsupportedVersion(UInt16)
    /// The total length field, or the buffer, exceeds ``SnapshotFormat/maximumEncodedSize``.
    case oversize(UInt32)
    /// The body's CRC-32 does not match the header.
    case badChecksum
    /// The header is inconsistent or the body does not parse.
    case malformed(Malformation)

    /// What is wrong in a ``SnapshotDecodeError/malformed(_:)`` file.
    public enum Malformation: UInt8, Equatable, Sendable {
        /// The header length field is not 32.
        case headerLength
        /// The total length field is smaller than the header.
        case totalLength
        /// The buffer holds more bytes than the total length field says.
        case bytesAfterEnd
        /// The reserved flags field is not 0.
        case flags
        /// The body ends before all its fields were read.
        case bodyTooShort
        /// The body has bytes left after its last field.
        case trailingBytes
        /// A count (cores, history, top entries, exits) is above its limit.
        case countOverLimit
        /// A name is longer than ``Snapshot/maximumNameLength``.
        case nameTooLong
        /// A name's length runs past the end of the body.
        case nameRunsPastEnd
        /// The CPU, iowait and memory histories have different lengths.
        case historyLengthMismatch
        /// The battery state byte is not a known ``BatteryFigures/State``.
        case unknownBatteryState
        /// A v3 section's length runs past the end of the body.
        case sectionRunsPastEnd
        /// A v3 file has no meta section (timestamp, interval).
        case missingMetaSection

        /// One line saying what is wrong.
        public var message: StaticString {
            switch self {
            case .headerLength: "malformed snapshot: header length is not 32"
            case .totalLength: "malformed snapshot: total length is smaller than the header"
            case .bytesAfterEnd: "malformed snapshot: bytes after the total length"
            case .flags: "malformed snapshot: unknown header flags"
            case .bodyTooShort: "malformed snapshot: body ends before its last field"
            case .trailingBytes: "malformed snapshot: bytes left after the last body field"
            case .countOverLimit: "malformed snapshot: a count is above its limit"
            case .nameTooLong: "malformed snapshot: a name is longer than its limit (48 bytes for a process)"
            case .nameRunsPastEnd: "malformed snapshot: a name runs past the end of the body"
            case .historyLengthMismatch: "malformed snapshot: CPU, iowait and memory histories differ in length"
            case .unknownBatteryState: "malformed snapshot: unknown battery state"
            case .sectionRunsPastEnd: "malformed snapshot: a section runs past the end of the body"
            case .missingMetaSection: "malformed snapshot: no meta section (timestamp, interval)"
            }
        }
    }

    /// One line saying what is wrong (without the numbers; see the associated values).
    public var message: StaticString {
        switch self {
        case .truncated: "truncated snapshot: shorter than its header or its total length"
        case .badMagic: "not a snapshot: bad magic (expected \"SYSSTATS\")"
        case .unsupportedVersion: "unsupported snapshot format version"
        case .oversize: "snapshot larger than the 16384-byte limit"
        case .badChecksum: "snapshot body checksum mismatch"
        case .malformed(let what): what.message
        }
    }
}
