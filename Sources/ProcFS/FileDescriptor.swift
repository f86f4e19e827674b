#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor, thin over `open(2)`, `openat(2)`, `pread(2)` and `close(2)`.
///
/// Every call retries on `EINTR`. The type does not close itself: the owner
/// decides when (readers keep /proc files open for the life of the process).
public struct FileDescriptor: Equatable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` read-only, close-on-exec. Wraps `open(2)`.
    public static func open(_ path: String, flags: Int32 = 0) -> Result<FileDescriptor, Errno> {
        while true {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | flags)
            if fd >= 0 { return .success(FileDescriptor(rawValue: fd)) }
            if errno != EINTR { return .failure(.current) }
        }
    }

    /// Opens `path` relative to this directory descriptor, read-only. Wraps `openat(2)`.
    public func openAt(_ path: UnsafePointer<CChar>, flags: Int32 = 0) -> Result<FileDescriptor, Errno> {
        while true {
            let fd = Glibc.openat(rawValue, path, O_RDONLY | O_CLOEXEC | flags)
            if fd >= 0 { return .success(FileDescriptor(rawValue: fd)) }
            if errno != EINTR { return .failure(.current) }
        }
    }

    /// Reads from `offset` into `buffer`. Wraps `pread(2)`; returns the byte count.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int = 0) -> Result<Int, Errno> {
        while true {
            let n = Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return .success(n) }
            if errno != EINTR { return .failure(.current) }
        }
    }

    /// Closes the descriptor. Wraps `close(2)`; `EINTR` is not retried (Linux has closed it).
    public func close() { _ = Glibc.close(rawValue) }
}
