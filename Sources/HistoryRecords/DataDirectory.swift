import ProcFS

/// Where history lives, as a pure rule (no file system access), shared by the sampler,
/// the writer and the CLI.
public enum DataDirectory {
    /// `dataDir` (from `--data-dir`) if given, else `$XDG_DATA_HOME/sysstats` when
    /// XDG_DATA_HOME is absolute, else `$HOME/.local/share/sysstats`; nil when none applies.
    public static func resolve(dataDir: String? = nil, xdgDataHome: String?, home: String?) -> String? {
        if let dataDir, !dataDir.isEmpty { return dataDir }
        if let xdg = xdgDataHome, xdg.utf8.first == UInt8(ascii: "/") { return join(xdg, "sysstats") }
        if let home, home.utf8.first == UInt8(ascii: "/") { return join(home, ".local/share/sysstats") }
        return nil
    }

    /// `directory/name`, without doubling a trailing slash.
    public static func join(_ directory: String, _ name: String) -> String {
        // Over bytes: `+` on Strings ran string-append code that the sampler runs nowhere
        // else, a 64 KiB window of its code pages (docs/performance-history.md).
        // Not `Array(directory.utf8)` either (`copyUTF8`, a window of its own): ProcFS's
        // byte copies.
        var bytes = utf8Bytes(directory)
        if bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
        appendUTF8(name, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
