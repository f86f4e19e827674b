/// Where the snapshot lives: the rule every program shares.
///
/// Pure (the caller passes the environment value and the uid) so that the
/// sampler, the CLI and an Embedded Swift renderer compute the same path.
public enum SnapshotLocation {
    /// The snapshot's file name inside the runtime directory.
    public static let fileName = "snapshot"

    /// `$XDG_RUNTIME_DIR/sysstats` when XDG_RUNTIME_DIR is set and absolute,
    /// else `/tmp/sysstats-<uid>`.
    public static func runtimeDirectory(xdgRuntimeDir: String?, uid: UInt32) -> String {
        if let xdg = xdgRuntimeDir, xdg.utf8.first == UInt8(ascii: "/") {
            return join(xdg, "sysstats")
        }
        return "/tmp/sysstats-" + decimal(uid)
    }

    /// `<directory>/snapshot`.
    public static func snapshotPath(in directory: String) -> String {
        join(directory, fileName)
    }

    static func join(_ directory: String, _ name: String) -> String {
        // Over bytes: `+` on Strings ran string-append code that the sampler runs nowhere
        // else, a 64 KiB window of its code pages (docs/performance-history.md); and copied through
        // `withUTF8`, not `Array(_.utf8)` / `append(contentsOf: _.utf8)` (`copyUTF8`, another).
        var bytes: [UInt8] = []
        appendUTF8(directory, to: &bytes)
        if bytes.last != UInt8(ascii: "/") { bytes.append(UInt8(ascii: "/")) }
        appendUTF8(name, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string`'s UTF-8 bytes to `bytes` (ProcFS's `appendUTF8`; this module does not
    /// import ProcFS).
    static func appendUTF8(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.reserveCapacity(bytes.count + utf8.count)
            var i = 0
            while i < utf8.count { bytes.append(utf8[i]); i += 1 }
        }
    }

    /// Decimal digits without string interpolation (which Embedded Swift lacks for integers).
    static func decimal(_ value: UInt32) -> String {
        var digits: [UInt8] = []
        var v = value
        repeat { digits.append(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 } while v > 0
        return String(decoding: digits.reversed(), as: UTF8.self)
    }
}
