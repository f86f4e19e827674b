import ProcFS

// The names people know for a unit (docs/metrics.md, "Units"), as Strings for `top --units`:
// ProcFS's UnitNaming, which the sampler's units part uses too, with the desktop files' names.

extension UnitKind {
    /// Its word, as a String (`top --units`' KIND column, `--json`'s `kind`).
    public var rawName: String { String(decoding: UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount), as: UTF8.self) }
}

public enum UnitNames {
    /// The unit's kind and a name for it; `desktopName` looks an application id up in the
    /// desktop files (`org.mozilla.firefox` → `Firefox`), nil where none names it.
    public static func name(of unit: String, desktopName: (String) -> String? = { _ in nil }) -> (kind: UnitKind, name: String) {
        var name: [UInt8] = [], bare: [UInt8] = []
        let (kind, id) = Array(unit.utf8).withUnsafeBytes { UnitNaming.describe($0, name: &name, bare: &bare) }
        if let id, let desktop = desktopName(String(decoding: bare[id], as: UTF8.self)) { return (kind, desktop) }
        return (kind, String(decoding: name, as: UTF8.self))
    }

    /// What a bookmark rule matches for a unit, as `comm` and the executable's name for a
    /// process: an app's short id (`firefox`, `Terminal`), a service's name (`pipewire`);
    /// nil for a container, a session and the system's own scopes, which rules do not name.
    public static func bookmarkName(of unit: String) -> String? {
        let (kind, name) = name(of: unit)
        return kind == .app || kind == .service ? name : nil
    }

    /// systemd's escapes in unit names (`\x2d` for a dash in an id) taken back.
    static func unescape(_ name: String) -> String {
        var bare: [UInt8] = []
        Array(name.utf8).withUnsafeBytes { UnitNaming.unescape($0, into: &bare) }
        return String(decoding: bare, as: UTF8.self)
    }
}
