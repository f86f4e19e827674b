#if canImport(Glibc)
import Glibc
#endif

/// One byte buffer allocated at start and reused for every read of every file.
///
/// A reader fills it from offset 0 with ``fill(from:)`` and parses the bytes in
/// place; nothing is allocated per read. It grows (doubling, up to a cap) only
/// when a file does not fit, which for /proc files happens once at start if at all.
public final class ReadBuffer {
    // Unchecked: every reader fills the buffer several times a sample, and a dynamic
    // exclusivity check is a call into the runtime each time; the buffer is one thread's,
    // and no fill can begin inside another.
    @exclusivity(unchecked) public private(set) var storage: UnsafeMutableRawBufferPointer
    /// Number of valid bytes from the last fill.
    @exclusivity(unchecked) public private(set) var count = 0
    public let maximumCapacity: Int

    public init(capacity: Int = 16 * 1024, maximumCapacity: Int = 1 << 20) {
        storage = .allocate(byteCount: capacity, alignment: 8)
        self.maximumCapacity = maximumCapacity
    }

    deinit { storage.deallocate() }

    /// The bytes read by the last fill.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<count]) }

    /// Reads the whole file from offset 0 (`pread`), growing the buffer if it was
    /// filled to the brim. Returns the bytes, or the error of the read.
    @discardableResult
    public func fill(from fd: FileDescriptor) -> Result<UnsafeRawBufferPointer, Errno> {
        while true {
            switch fd.read(into: storage) {
            case .failure(let e): count = 0; return .failure(e)
            case .success(let n):
                // A full buffer may mean a truncated file: grow and re-read from 0
                // (a /proc file is generated at read time, so re-read, do not append).
                if n == storage.count && storage.count < maximumCapacity {
                    let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 8)
                    storage.deallocate()
                    storage = bigger
                    continue
                }
                count = n
                return .success(bytes)
            }
        }
    }

    /// Opens `path`, reads it whole, and closes it.
    @discardableResult
    public func fill(path: String) -> Result<UnsafeRawBufferPointer, Errno> {
        switch FileDescriptor.open(path) {
        case .failure(let e): count = 0; return .failure(e)
        case .success(let fd):
            defer { fd.close() }
            return fill(from: fd)
        }
    }
}
