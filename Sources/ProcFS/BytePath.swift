import CLibc

/// A file path assembled from bytes, for the code that makes paths at start (discovery
/// under /sys: hwmon chips and inputs, CPUs, block devices, network interfaces).
///
/// String interpolation, `+`, `Int.description` and `sort` each ran standard-library code
/// that nothing else in the sampler runs, and the kernel keeps such code resident in 64 KiB
/// windows of the executable for the process's life (docs/performance-history.md, "The
/// system probes"). Appending bytes, literals and decimal digits to a `[UInt8]` runs none of it;
/// ``string`` makes the `String` some APIs keep (``ProcFile/path``) the way ``joinPath(_:_:)``
/// already does.
struct BytePath {
    private(set) var bytes: [UInt8] = []

    /// An empty path, to build a name in (`temp3`, `thermal_zone1`).
    init() {}

    /// `root` without its trailing slashes; `/` (or an empty root) becomes empty, so that
    /// appending `/class/hwmon` gives `/class/hwmon`, as ``joinPath(_:_:)`` does.
    init(_ root: String) {
        bytes = pathBytes(root)   // the bytes it names: a root given as bytes that are not UTF-8 too
        while bytes.count > 1 && bytes[bytes.count - 1] == 0x2F { bytes.removeLast() }
        if bytes.count == 1 && bytes[0] == 0x2F { bytes.removeLast() }
    }

    var count: Int { bytes.count }

    /// Drops everything after the first `count` bytes (back to a directory's path).
    mutating func truncate(to count: Int) {
        while bytes.count > count { bytes.removeLast() }
    }

    /// Appends an ASCII literal as is (`/class/hwmon`, `_input`).
    mutating func append(_ literal: StaticString) {
        let p = literal.utf8Start
        var i = 0
        while i < literal.utf8CodeUnitCount { bytes.append(p[i]); i += 1 }
    }

    /// Appends one byte.
    mutating func append(byte: UInt8) { bytes.append(byte) }

    /// Appends raw bytes (a directory entry's name).
    mutating func append(_ name: UnsafeRawBufferPointer) {
        var i = 0
        while i < name.count { bytes.append(name[i]); i += 1 }
    }

    /// Appends `n` (≥ 0) in decimal, without leading zeros.
    mutating func append(decimal n: Int) {
        let n = max(0, n)
        var divisor = 1
        while n / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(0x30 + UInt8(truncatingIfNeeded: n / divisor % 10))
            divisor /= 10
        }
    }

    /// The path as a String, for APIs that keep one, every byte kept (``pathString(_:)``):
    /// a name that is not UTF-8 still names its file.
    var string: String { pathString(bytes: bytes) }

    /// The bytes as a name (cut at ``FixedName/capacity``).
    var name: FixedName { bytes.withUnsafeBytes { FixedName($0) } }

    /// Calls `body` with the path NUL-terminated (valid only during the call).
    mutating func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        bytes.append(0)
        defer { bytes.removeLast() }
        return bytes.withUnsafeBufferPointer { p in
            body(UnsafeRawPointer(p.baseAddress!).assumingMemoryBound(to: CChar.self))
        }
    }

    /// Whether something exists at the path (`access(2)`, `F_OK`; symbolic links followed).
    mutating func exists() -> Bool {
        withCString { access($0, F_OK) == 0 }
    }

    /// Opens the file at the path, reads it whole into `buffer` and closes it.
    mutating func read(into buffer: ReadBuffer) -> Result<UnsafeRawBufferPointer, Errno> {
        withCString { buffer.fill(relativeTo: FileDescriptor(rawValue: AT_FDCWD), $0) }
    }
}

/// Sorts `numbers` ascending in place: an insertion sort, for the few hundred numbered
/// entries discovery lists (the standard library's sort is a window of code of its own).
func sortAscending(_ numbers: inout [Int]) {
    var i = 1
    while i < numbers.count {
        let value = numbers[i]
        var j = i
        while j > 0 && numbers[j - 1] > value {
            numbers[j] = numbers[j - 1]
            j -= 1
        }
        numbers[j] = value
        i += 1
    }
}
