/// A kernel release as `uname -r` and /proc/sys/kernel/osrelease give it, e.g. `6.1.0-13-amd64`.
///
/// Only major, minor and patch take part in comparison and equality, numerically
/// (`4.10` > `4.9`); the rest (`-rc3`, `-amd64`) is kept for display. A missing
/// patch level is 0.
public struct KernelRelease: Comparable, CustomStringConvertible, Sendable {
    public var major: UInt32
    public var minor: UInt32
    public var patch: UInt32
    /// The release text as read, without the trailing newline.
    public var release: String

    public init(major: UInt32, minor: UInt32, patch: UInt32 = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
        release = "\(major).\(minor).\(patch)"
    }

    /// Parses release text such as `5.10.0-rc3` or `4.9`; nil for anything that does not
    /// start with `major.minor` or holds blanks, control bytes or non-ASCII.
    /// One trailing newline is allowed.
    public init?(bytes: UnsafeRawBufferPointer) {
        var count = bytes.count
        if count > 0, bytes[count - 1] == 0x0A { count -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
        guard count > 0, count <= 64, text.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var s = ByteScanner(text)
        guard let ma = s.unsigned(), s.consume("."), let mi = s.unsigned(),
              let major = UInt32(exactly: ma), let minor = UInt32(exactly: mi) else { return nil }
        var patch: UInt32 = 0
        if s.consume(".") {
            guard let p = s.unsigned(), let p32 = UInt32(exactly: p) else { return nil }
            patch = p32
        }
        self.major = major
        self.minor = minor
        self.patch = patch
        release = String(decoding: text, as: UTF8.self)
    }

    /// Parses release text; see ``init(bytes:)``.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ KernelRelease(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// Reads `<procRoot>/sys/kernel/osrelease`; nil when unreadable or not a release.
    public static func read(procRoot: String = "/proc") -> KernelRelease? {
        let buffer = ReadBuffer(capacity: 128, maximumCapacity: 128)
        guard case .success(let bytes) = buffer.fill(path: joinPath(procRoot, "sys/kernel/osrelease")) else {
            return nil
        }
        return KernelRelease(bytes: bytes)
    }

    /// Pressure stall information, /proc/pressure (Linux ≥ 4.20).
    public var supportsPressureStall: Bool { self >= KernelRelease(major: 4, minor: 20) }
    /// `MemAvailable` in /proc/meminfo (Linux ≥ 3.14).
    public var supportsMemAvailable: Bool { self >= KernelRelease(major: 3, minor: 14) }

    public var description: String { release }

    public static func == (a: KernelRelease, b: KernelRelease) -> Bool {
        (a.major, a.minor, a.patch) == (b.major, b.minor, b.patch)
    }

    public static func < (a: KernelRelease, b: KernelRelease) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }
}
