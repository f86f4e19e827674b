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
        // Digits by hand into a stack buffer, not an interpolation: the sampler compares
        // with releases made this way in every sample (allocation-free: the text is a small
        // string), and integer description code would stay resident for just that.
        release = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 34) { buffer in
            var count = 0
            for index in 0..<3 {
                var value = index == 0 ? major : index == 1 ? minor : patch
                if index > 0 { buffer[count] = UInt8(ascii: "."); count += 1 }
                let start = count
                repeat { buffer[count] = UInt8(ascii: "0") + UInt8(value % 10); count += 1; value /= 10 } while value > 0
                var low = start, high = count - 1
                while low < high { buffer.swapAt(low, high); low += 1; high -= 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
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
