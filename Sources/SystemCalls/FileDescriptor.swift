import CLibc
import CDirect

/// An open file descriptor, thin over `open(2)`, `openat(2)`, `pread(2)`, `read(2)`,
/// `write(2)` and `close(2)`.
///
/// Every call retries on `EINTR`, as ``retryingInterrupts(_:)`` does for other calls; the
/// netlink socket and the boot summary's reader loop on it themselves. The type does not close itself: the owner
/// decides when (readers keep /proc files open for the life of the process).
public struct FileDescriptor: Equatable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` read-only, close-on-exec. Wraps `open(2)`.
    public static func open(_ path: String, flags: Int32 = 0) -> Result<FileDescriptor, Errno> {
        let path = cPath(path)  // not the implicit String conversion (utf8CString): CPath.swift
        while true {
            let fd = clibc_open(path, O_RDONLY | O_CLOEXEC | flags, 0)
            if fd >= 0 { return .success(FileDescriptor(rawValue: fd)) }
            if clibc_errno() != EINTR { return .failure(.current) }
        }
    }

    /// Opens `path` relative to this directory descriptor, read-only. Wraps `openat(2)`.
    public func openAt(_ path: UnsafePointer<CChar>, flags: Int32 = 0) -> Result<FileDescriptor, Errno> {
        while true {
            let fd = clibc_openat(rawValue, path, O_RDONLY | O_CLOEXEC | flags, 0)
            if fd >= 0 { return .success(FileDescriptor(rawValue: fd)) }
            if clibc_errno() != EINTR { return .failure(.current) }
        }
    }

    /// Reads from `offset` into `buffer`. Wraps `pread(2)`, as a bare system call (the
    /// sampler's every read: glibc's wrapper was two pages a sample touches); returns the
    /// byte count.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int = 0) -> Result<Int, Errno> {
        while true {
            let n = cdirect_pread(rawValue, buffer.baseAddress, buffer.count, offset)
            if n >= 0 { return .success(n) }
            if n != -Int(EINTR) { return .failure(Errno(rawValue: Int32(truncatingIfNeeded: -n))) }
        }
    }

    /// Reads at the current position into `buffer`. Wraps `read(2)`; returns the byte count
    /// (0 at end of file; a pipe may give fewer bytes than asked).
    public func readSome(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        while true {
            let n = clibc_read(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return .success(n) }
            if clibc_errno() != EINTR { return .failure(.current) }
        }
    }

    /// Writes all of `bytes` at the current position, as many `write(2)` calls as it takes.
    /// Returns nil, or the error that stopped it (`EIO` for a write that wrote nothing).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            let n = clibc_write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if clibc_errno() == EINTR { continue }
                return .current
            }
            if n == 0 { return Errno(rawValue: EIO) }
            offset += n
        }
        return nil
    }

    /// Writes all of `bytes` at `offset` (`pwrite(2)` as a bare system call, as many calls as
    /// it takes); the file position does not move. Returns nil, or the error that stopped it.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, atOffset offset: Int) -> Errno? {
        var done = 0
        while done < bytes.count {
            let n = cdirect_pwrite(rawValue, bytes.baseAddress! + done, bytes.count - done, offset + done)
            if n < 0 {
                if n == -Int(EINTR) { continue }
                return Errno(rawValue: Int32(truncatingIfNeeded: -n))
            }
            if n == 0 { return Errno(rawValue: EIO) }
            done += n
        }
        return nil
    }

    /// ``writeAll(_:)`` of an array.
    public func writeAll(_ bytes: [UInt8]) -> Errno? { bytes.withUnsafeBytes { writeAll($0) } }

    /// Closes the descriptor. Wraps `close(2)`; `EINTR` is not retried (Linux has closed it).
    public func close() { _ = clibc_close(rawValue) }
}

/// Runs a system call that returns -1 with `errno` until it is not interrupted (`flock`,
/// `waitpid`, …: the calls ``FileDescriptor`` does not wrap).
@inline(__always)
public func retryingInterrupts<T: FixedWidthInteger & SignedInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || clibc_errno() != EINTR { return result }
    }
}
