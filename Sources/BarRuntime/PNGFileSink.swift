// `--output png:FILE`: each redraw of the panel is encoded as PNG (into a buffer
// reserved once) and written to a temporary file in FILE's directory, then
// renamed over FILE: a reader (an image viewer, conky, genmon) never sees half a file.

import BarCore
import CBarSys

/// Writes the panel image to one PNG file, replaced atomically on every update.
public struct PNGFileSink: BarSink {
    /// FILE and the temporary `.FILE.tmp` next to it, NUL-terminated.
    let path: [UInt8]
    let temporaryPath: [UInt8]
    var encoder: PNGEncoder

    /// Writes to `path` (no NUL) images of `width`×`height`.
    public init(path: [UInt8], width: Int, height: Int) {
        var p = path
        p.append(0)
        self.path = p
        temporaryPath = PNGFileSink.temporaryPath(for: path)
        encoder = PNGEncoder(width: width, height: height)
    }

    /// `dir/.name.tmp` for `dir/name` (`.name.tmp` for a bare name), NUL-terminated:
    /// the same directory, so rename(2) replaces the file atomically.
    static func temporaryPath(for path: [UInt8]) -> [UInt8] {
        var slash = path.count
        while slash > 0 && path[slash - 1] != UInt8(ascii: "/") { slash -= 1 }
        var t: [UInt8] = []
        t.reserveCapacity(path.count + 8)
        for i in 0..<slash { t.append(path[i]) }
        t.append(UInt8(ascii: "."))
        for i in slash..<path.count { t.append(path[i]) }
        for b in ".tmp".utf8 { t.append(b) }
        t.append(0)
        return t
    }

    public var pollFD: Int32 { -1 }

    /// Text updates do not apply to a PNG file.
    public mutating func show(_ line: [UInt8]) -> Int32 { 0 }

    public mutating func showImage(_ image: PanelImage) -> Int32 {
        encoder.encode(image)
        let temporary = temporaryPath, target = path
        return encoder.withBytes { writeAtomically(temporary, target, $0) }
    }

    public mutating func handleEvents() -> Int { 0 }
}

/// Writes `bytes` to `temporary` (created afresh, 0644, never through a FIFO or symlink) and renames it over `target`
/// (both NUL-terminated). Returns 0 or the errno that stopped it; the temporary
/// file is removed on failure.
public func writeAtomically(_ temporary: [UInt8], _ target: [UInt8], _ bytes: [UInt8]) -> Int32 {
    bytes.withUnsafeBytes { writeAtomically(temporary, target, $0) }
}

/// ``writeAtomically(_:_:_:)`` of bytes the caller owns (the PNG encoder's buffer).
public func writeAtomically(_ temporary: [UInt8], _ target: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Int32 {
    temporary.withUnsafeBufferPointer { t in
        t.baseAddress!.withMemoryRebound(to: CChar.self, capacity: t.count) { tmp -> Int32 in
            var fd: Int32
            fd = cbarsys_create_exclusive(tmp, 0o644)
            if fd < 0 { return cbarsys_errno() }
            let err = writeAll(fd, bytes)
            if close(fd) != 0 && err == 0 && cbarsys_errno() != EINTR {
                let e = cbarsys_errno()
                _ = unlink(tmp)
                return e
            }
            if err != 0 { _ = unlink(tmp); return err }
            let renamed = target.withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { rename(tmp, $0) }
            }
            if renamed != 0 { let e = cbarsys_errno(); _ = unlink(tmp); return e }
            return 0
        }
    }
}
