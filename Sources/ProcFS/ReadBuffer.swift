import CLibc

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
    ///
    /// A /proc file listed record by record (a seq_file: /proc/diskstats, /proc/net/dev,
    /// /proc/PID/smaps) gives at most about a page per read, however large the buffer: after
    /// a read of ``continuedReadBytes`` or more, the next bytes are read from where it
    /// stopped, until a short read. Smaller files (most of what a sample reads) take one
    /// read, as before.
    @discardableResult
    public func fill(from fd: FileDescriptor) -> Result<UnsafeRawBufferPointer, Errno> {
        var total = 0
        while true {
            if total == storage.count {
                guard storage.count < maximumCapacity else { break }
                // Grow and read again from 0: a file generated whole at each read (/proc/stat)
                // would otherwise join two generations at the seam.
                let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: min(storage.count * 2, maximumCapacity), alignment: 8)
                storage.deallocate()
                storage = bigger
                total = 0
            }
            switch fd.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[total...]), at: total) {
            case .failure(let e): count = 0; return .failure(e)
            case .success(let n):
                total += n
                if n == 0 || (n < Self.continuedReadBytes && total < storage.count) {
                    count = total
                    return .success(bytes)
                }
            }
        }
        count = total
        return .success(bytes)
    }

    /// A read this long may have stopped at a page's worth of a seq_file's records.
    public static let continuedReadBytes = 2048

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
