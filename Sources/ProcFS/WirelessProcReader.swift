/// One interface's line of /proc/net/wireless (the wireless extensions' statistics).
public struct WirelessProcReading: Equatable, Sendable {
    /// The "link" column: the driver's link quality, clamped to 0...255 (cfg80211 drivers
    /// count 0...70, ``maximumLink``).
    public var link: UInt8
    /// The "level" column in dBm (−128...−1); nil when the driver gave no level or one that
    /// is not in dBm. See ``WirelessProcReader/levelDBm(_:)``.
    public var levelDBm: Int8?

    public init(link: UInt8, levelDBm: Int8?) {
        self.link = link
        self.levelDBm = levelDBm
    }

    /// The top of cfg80211's "link" scale (`max_qual.qual` = 70, `net/wireless/wext-compat.c`).
    public static let maximumLink: UInt8 = 70

    /// ``link`` out of 70 as a percentage, capped at 100.
    public var qualityPercent: UInt8 { UInt8(min(100, Int(link) * 100 / Int(WirelessProcReading.maximumLink))) }
}

/// Reads /proc/net/wireless, the fallback when nl80211 cannot be asked:
///
/// ```
/// Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE
///  face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22
///  wlan0: 0000   70.  -40.  -256        0      0      0      0      0        0
/// ```
///
/// The kernel prints each value followed by `.` when it was updated since the last read,
/// a blank otherwise (`net/wireless/wext-proc.c`); both are accepted. The file is kept open.
public final class WirelessProcReader {
    private let file: ProcFile

    /// Prepares to read `<procRoot>/net/wireless`; opens it on the first update. Never fails.
    public init(procRoot: String = "/proc") {
        file = ProcFile(joinPath(procRoot, "net/wireless"))
    }

    /// Re-reads the file into `buffer`; nil when it is unreadable or has no line for `interface`
    /// (a wired interface, or no wireless extensions).
    public func update(_ buffer: ReadBuffer, interface: ShortName) -> WirelessProcReading? {
        update(buffer, interface: interface.fixed)
    }

    /// The same for a name as /proc/net/dev gives it.
    public func update(_ buffer: ReadBuffer, interface: FixedName) -> WirelessProcReading? {
        guard !interface.isEmpty, case .success(let bytes) = file.read(into: buffer) else { return nil }
        return interface.withUnsafeBytes { WirelessProcReader.parse(bytes, interface: $0) }
    }

    /// The reading on `interface`'s line of the file's `bytes`; nil when there is no such
    /// line or its link column is missing.
    public static func parse(_ bytes: UnsafeRawBufferPointer, interface: UnsafeRawBufferPointer) -> WirelessProcReading? {
        guard interface.count > 0 else { return nil }
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            s.skipBlanks()
            let start = s.position
            while let b = s.current, b != 0x3A, b != 0x0A { s.position += 1 }  // up to ':' or end of line
            guard s.current == 0x3A else { s.skipLine(); continue }
            let name = UnsafeRawBufferPointer(rebasing: bytes[start..<s.position])
            s.position += 1
            guard name.elementsEqual(interface) else { s.skipLine(); continue }
            guard s.word() != nil, let link = s.signed() else { return nil }  // status (hex), link
            skipUpdateMark(&s)
            let level = s.signed()
            return WirelessProcReading(link: UInt8(clamping: link), levelDBm: level.flatMap(levelDBm))
        }
        return nil
    }

    /// The `.` (or other mark) after a value.
    private static func skipUpdateMark(_ s: inout ByteScanner) {
        if let b = s.current, b != 0x20, b != 0x09, b != 0x0A { s.position += 1 }
    }

    /// A "level" as dBm. The kernel prints a dBm level as the driver's u8 − 256 (−40 for
    /// 216), and a missing one as `-256` (0 − 256): −255...−1 are dBm (clamped to −128);
    /// −256 and below mean none. Old drivers print the raw u8: 128...255 are dBm + 256;
    /// 1...127 are relative units, not dBm, and 0 means none — nil for those.
    public static func levelDBm(_ value: Int64) -> Int8? {
        switch value {
        case -255 ... -1: return Int8(clamping: value)
        case 128...255: return Int8(value - 256)
        default: return nil
        }
    }
}
