/// A fixed, reused buffer in which relative paths like `1234/stat` are built,
/// NUL-terminated, for `openat(2)` relative to an open directory.
///
/// Set the directory part once per entry with ``setDirectory(_:)``, then get
/// each file's path with ``path(_:)``. Nothing is allocated after `init`.
final class PathBuffer {
    static let capacity = 512
    private let storage = UnsafeMutablePointer<CChar>.allocate(capacity: PathBuffer.capacity)
    private var directoryLength = 0

    init() {
        storage[0] = 0
    }

    deinit { storage.deallocate() }

    /// Makes `name/` the directory part of the next paths. Returns false (and
    /// leaves the buffer empty) if the name cannot fit with room for a file name.
    func setDirectory(_ name: UnsafeRawBufferPointer) -> Bool {
        directoryLength = 0
        storage[0] = 0
        guard name.count + 1 + 64 < PathBuffer.capacity else { return false }
        for i in 0..<name.count { storage[i] = CChar(bitPattern: name[i]) }
        storage[name.count] = 0x2F  // "/"
        directoryLength = name.count + 1
        storage[directoryLength] = 0
        return true
    }

    /// ``setDirectory(_:)`` with a pid's decimal digits.
    func setDirectory(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { d in
            var n = UInt32(pid), i = d.count
            while n > 0 { i -= 1; d[i] = UInt8(0x30 + n % 10); n /= 10 }
            return setDirectory(UnsafeRawBufferPointer(rebasing: d[i...]))
        }
    }

    /// The path `<directory>/<file>`, valid until the next call on this buffer.
    func path(_ file: StaticString) -> UnsafePointer<CChar> {
        let n = min(file.utf8CodeUnitCount, PathBuffer.capacity - 1 - directoryLength)
        let bytes = file.utf8Start
        for i in 0..<n { storage[directoryLength + i] = CChar(bitPattern: bytes[i]) }
        storage[directoryLength + n] = 0
        return UnsafePointer(storage)
    }
}
