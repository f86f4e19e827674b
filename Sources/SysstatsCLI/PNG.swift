#if canImport(Glibc)
import Glibc
#endif
import Bookmarks

/// Writing a picture file. The encoder is the renderer's (BarCore's `PNGEncoder`):
/// one PNG encoder in the project.
public enum PNG {
    /// Writes `bytes` to `<path>.tmp-<pid>`, syncs it, then renames it over `path`; nil or the reason.
    public static func writeFile(_ bytes: [UInt8], to path: String) -> String? {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if fd < 0 { return "cannot create \(TerminalText.escape(temporary)): \(String(cString: strerror(errno)))" }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd); unlink(temporary)
                return "cannot write \(TerminalText.escape(temporary)): \(reason)"
            }
            offset += n
        }
        let synced = fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        if !synced { unlink(temporary); return "cannot write \(TerminalText.escape(temporary)): \(reason)" }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot rename \(TerminalText.escape(temporary)) to \(TerminalText.escape(path)): \(reason)"
        }
        return nil
    }
}
