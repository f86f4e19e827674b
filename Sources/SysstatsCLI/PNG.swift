#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import Bookmarks

/// Writing a picture file. The encoder is the renderer's (BarCore's `PNGEncoder`):
/// one PNG encoder in the project.
public enum PNG {
    /// Writes `bytes` to a temporary file beside `path`, syncs it, then renames it over
    /// `path` (``writeFileAtomically(_:to:mode:)``); nil or the reason.
    public static func writeFile(_ bytes: [UInt8], to path: String) -> String? {
        // The only outside text in the message is the path: escaped for the terminal.
        writeFileAtomically(bytes, to: path, mode: 0o644).map { TerminalText.escape($0.description) }
    }
}
