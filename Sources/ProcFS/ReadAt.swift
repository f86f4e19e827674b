import CLibc

// Reading small files relative to an open directory (htop-style): one `openat`,
// one `pread` into a buffer the caller owns, one `close`. Nothing is allocated.

extension ReadBuffer {
    /// Opens `path` relative to the directory `directory` (`openat(2)`), reads it
    /// whole into this buffer and closes it. Returns the bytes or the error.
    func fill(relativeTo directory: FileDescriptor, _ path: UnsafePointer<CChar>) -> Result<UnsafeRawBufferPointer, Errno> {
        switch directory.openAt(path) {
        case .failure(let e): return .failure(e)
        case .success(let fd):
            defer { fd.close() }
            return fill(from: fd)
        }
    }
}

/// Reads at most `into.count` bytes of the file at `path` relative to `directory`
/// (`openat(2)` + one `pread(2)`). Returns the byte count, or nil if unreadable.
func readPrefix(relativeTo directory: FileDescriptor, _ path: UnsafePointer<CChar>,
                into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    guard case .success(let fd) = directory.openAt(path) else { return nil }
    defer { fd.close() }
    guard case .success(let n) = fd.read(into: buffer) else { return nil }
    return n
}

/// Reads the target of the symbolic link at `path` relative to `directory`
/// (`readlinkat(2)`) into `buffer`. Returns the byte count (no NUL is added), or
/// nil if the link cannot be read (not a link, gone, or another user's process).
func readLink(relativeTo directory: FileDescriptor, _ path: UnsafePointer<CChar>,
              into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    guard let base = buffer.baseAddress else { return nil }
    let n = readlinkat(directory.rawValue, path, base.assumingMemoryBound(to: CChar.self), buffer.count)
    return n > 0 ? n : nil
}
