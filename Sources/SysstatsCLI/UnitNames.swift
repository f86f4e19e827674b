// The names people know for a unit (docs/usage.md, "Units"): an app scope by its app, a
// service by its name, a container by its runtime and short id, a session as `session`.

/// What kind of unit a cgroup is, as its name says.
public enum UnitKind: String, Sendable {
    case app, service, container, session, system
}

public enum UnitNames {
    /// Launchers that put their name before the app's in an app scope
    /// (`app-gnome-org.gnome.Terminal-1234.scope`, systemd's desktop integration).
    static let launchers = ["gnome", "kde", "flatpak", "snap", "xfce", "sway", "hyprland", "niri", "cosmic", "dbus"]

    /// The unit's kind and a name for it; `desktopName` looks an application id up in the
    /// desktop files (`org.mozilla.firefox` → `Firefox`), nil where none names it.
    public static func name(of unit: String, desktopName: (String) -> String? = { _ in nil }) -> (kind: UnitKind, name: String) {
        let bare = unescape(unit)
        if bare.hasPrefix("docker-"), bare.hasSuffix(".scope") {
            return (.container, "docker " + String(bare.dropFirst(7).prefix(12)))
        }
        if bare.hasPrefix("libpod-conmon-") { return (.container, "podman conmon " + String(bare.dropFirst(14).prefix(12))) }
        if bare.hasPrefix("libpod-"), bare.hasSuffix(".scope") {
            return (.container, "podman " + String(bare.dropFirst(7).prefix(12)))
        }
        if bare.hasPrefix("session-"), bare.hasSuffix(".scope") { return (.session, "session") }
        if bare == "init.scope" { return (.system, "systemd") }
        if bare.hasPrefix("app-"), let id = appID(bare) {
            return (.app, desktopName(id) ?? shortAppName(id))
        }
        if bare.hasSuffix(".service") {
            var name = String(bare.dropLast(8))
            // A template's instance (`getty@tty1`) keeps its instance.
            if name.hasSuffix("@") { name.removeLast() }
            return (.service, name)
        }
        if bare.hasSuffix(".scope") { return (.system, String(bare.dropLast(6))) }
        return (.system, bare)
    }

    /// What a bookmark rule matches for a unit, as `comm` and the executable's name for a
    /// process: an app's short id (`firefox`, `Terminal`), a service's name (`pipewire`);
    /// nil for a container, a session and the system's own scopes, which rules do not name.
    public static func bookmarkName(of unit: String) -> String? {
        let bare = unescape(unit)
        switch name(of: unit).kind {
        case .app: return appID(bare).map(shortAppName)
        case .service: return name(of: unit).name
        default: return nil
        }
    }

    /// The application id of an app scope or service: `app[-LAUNCHER]-ID-RANDOM.scope` or
    /// `app[-LAUNCHER]-ID[@RANDOM].service`.
    static func appID(_ unit: String) -> String? {
        var rest = Substring(unit.dropFirst(4))
        if rest.hasSuffix(".scope") {
            rest = rest.dropLast(6)
            // The random part after the id's last dash (a pid, or a hex string).
            guard let dash = rest.lastIndex(of: "-") else { return nil }
            rest = rest[..<dash]
        } else if rest.hasSuffix(".service") {
            rest = rest.dropLast(8)
            if let at = rest.firstIndex(of: "@") { rest = rest[..<at] }
        } else {
            return nil
        }
        for launcher in launchers where rest.hasPrefix(launcher + "-") {
            rest = rest.dropFirst(launcher.count + 1)
            break
        }
        return rest.isEmpty ? nil : String(rest)
    }

    /// `org.gnome.Terminal` → `Terminal`; `firefox` → `firefox`.
    static func shortAppName(_ id: String) -> String {
        guard id.contains("."), let last = id.split(separator: ".").last, !last.isEmpty else { return id }
        return String(last)
    }

    /// systemd's escapes in unit names (`\x2d` for a dash in an id) taken back.
    static func unescape(_ name: String) -> String {
        guard name.contains("\\x") else { return name }
        var out: [UInt8] = []
        let bytes = Array(name.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x5C, i + 3 < bytes.count, bytes[i + 1] == 0x78,
               let v = UInt8(String(decoding: bytes[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) {
                out.append(v); i += 4
            } else {
                out.append(bytes[i]); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
