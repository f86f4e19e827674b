import CLibc

/// A system file that is opened once and re-read from offset 0 on every update.
///
/// /proc/stat, /proc/meminfo and friends regenerate their contents on each read
/// from offset 0, so keeping them open saves an `open`/`close` pair per sample.
/// If the first open failed (the file does not exist on this kernel) the file
/// stays unavailable; ``read(into:)`` returns the error each time, cheaply.
public final class ProcFile {
    public let path: String
    private var fd: FileDescriptor?
    private var openError: Errno?

    public init(_ path: String) {
        self.path = path
    }

    deinit { fd?.close() }

    /// Whether the file could be opened.
    public var isAvailable: Bool {
        ensureOpen()
        return fd != nil
    }

    private func ensureOpen() {
        guard fd == nil, openError == nil else { return }
        switch FileDescriptor.open(path) {
        case .success(let d): fd = d
        case .failure(let e): openError = e
        }
    }

    /// Re-reads the file into `buffer` and returns its bytes.
    public func read(into buffer: ReadBuffer) -> Result<UnsafeRawBufferPointer, Errno> {
        ensureOpen()
        guard let fd else { return .failure(openError ?? .noSuchFile) }
        return buffer.fill(from: fd)
    }
}

/// Joins a root (e.g. `--proc-root`) and a path below it, with exactly one slash.
public func joinPath(_ root: String, _ path: String) -> String {
    // Over UTF-8 bytes: String.hasPrefix/hasSuffix would be the sampler's only users of
    // their code pages (a 64 KiB window resident for its life, for a few calls at start).
    let slash = UInt8(ascii: "/")
    var r = utf8Bytes(root)
    while r.count > 1 && r.last == slash { r.removeLast() }
    let rootIsSlash = r.count == 1 && r[0] == slash
    var joined = rootIsSlash ? [] : r
    if path.utf8.first != slash { joined.append(slash) }
    appendUTF8(path, to: &joined)
    return String(decoding: joined, as: UTF8.self)
}
