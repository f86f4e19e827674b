import CLibc

/// What the last whole frame of a pushing helper (the sound helper, the media helper) said.
public enum HelperFrameState: Equatable, Sendable {
    /// Nothing yet.
    case starting
    /// Its server (the sound server, the session bus) answered: the frame's readings hold.
    case connected
    /// Its server does not answer (the reason, as the helper says it).
    case down
    /// The helper stops (its library missing): the reason says why.
    case failed
}

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

    /// Hands each complete line buffered (its start and its end, the LF left out) to `line`,
    /// which says whether it ended a frame; returns whether one did and the bytes up to the
    /// last frame's end, for ``dropFirst(_:)`` (what follows is the next frame's start).
    func scanFrames(_ line: (Int, Int) -> Bool) -> (took: Bool, consumed: Int) {
        var took = false
        var lineStart = 0, consumed = 0
        var i = 0
        while i < filled {
            if bytes[i] == UInt8(ascii: "\n") {
                if line(lineStart, i) { took = true; consumed = i + 1 }
                lineStart = i + 1
            }
            i += 1
        }
        return (took, consumed)
    }

    /// Whether the bytes from `start` to `end` are `w`.
    func word(_ start: Int, _ end: Int, _ w: StaticString) -> Bool {
        guard end - start == w.utf8CodeUnitCount else { return false }
        for j in 0..<w.utf8CodeUnitCount where bytes[start + j] != w.utf8Start[j] { return false }
        return true
    }

    /// The bytes from `start` to `end` as a decimal of 1 to 9 digits, or nil.
    func number(_ start: Int, _ end: Int) -> Int64? {
        guard end > start, end - start <= 9 else { return nil }
        var n: Int64 = 0
        for j in start..<end {
            let d = bytes[j] &- UInt8(ascii: "0")
            guard d <= 9 else { return nil }
            n = n * 10 + Int64(d)
        }
        return n
    }
}
