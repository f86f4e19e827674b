import CLibc

/// What a helper program wrote on its stdout and the sampler has not taken yet (the NVIDIA
/// helper's frames, the sound helper's): filled from the pipe without blocking, appended to
/// by tests and the fuzz targets, its taken frames dropped from the front. A line longer than
/// the buffer drops what was buffered, so a helper that never ends a line cannot grow it.
struct HelperOutputBuffer {
    private(set) var bytes: [UInt8]
    private(set) var filled = 0

    init(capacity: Int) {
        bytes = [UInt8](repeating: 0, count: capacity)
    }

    /// Reads what `fd` has (non-blocking: until it would block, is at its end, or the buffer
    /// is full). Returns false at the end of the stream or on an error but EAGAIN and EINTR.
    mutating func fill(from fd: FileDescriptor) -> Bool {
        while true {
            if filled == bytes.count { filled = 0 }  // a line longer than the buffer: drop it
            let start = filled
            let n = bytes.withUnsafeMutableBytes { p in
                fd.readSome(into: UnsafeMutableRawBufferPointer(rebasing: p[start...]))
            }
            switch n {
            case .success(0): return false
            case .success(let count): filled += count
            case .failure(let e): return e.rawValue == EAGAIN || e.rawValue == EINTR
            }
        }
    }

    /// Appends `data` as if read.
    mutating func append(_ data: UnsafeRawBufferPointer) {
        for b in data {
            if filled == bytes.count { filled = 0 }
            bytes[filled] = b
            filled += 1
        }
    }

    /// Drops the first `count` bytes (the frames taken), moving the rest to the front.
    mutating func dropFirst(_ count: Int) {
        guard count > 0 else { return }
        let rest = filled - count
        bytes.withUnsafeMutableBytes { p in
            p.baseAddress!.copyMemory(from: p.baseAddress! + count, byteCount: rest)
        }
        filled = rest
    }

    /// Forgets everything buffered.
    mutating func removeAll() { filled = 0 }
}
