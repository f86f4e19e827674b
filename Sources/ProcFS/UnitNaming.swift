// The names people know for a unit of the cgroup v2 tree (docs/metrics.md, "Units"): an app
// scope by its app, a service by its name, a container by its runtime and short id, a
// session as `session`. Over bytes: the sampler names the units it shows, `sysstats top
// --units` the ones it lists.

/// What kind of unit a cgroup is, as its name says.
public enum UnitKind: UInt8, Sendable, CaseIterable {
    case app, service, container, session, system

    /// Its word: `top --units`' KIND column, the units part's `{source}`.
    public var word: StaticString {
        switch self {
        case .app: return "app"
        case .service: return "service"
        case .container: return "container"
        case .session: return "session"
        case .system: return "system"
        }
    }
}

public enum UnitNaming {
    /// Launchers that put their name before the app's in an app scope
    /// (`app-gnome-org.gnome.Terminal-1234.scope`, systemd's desktop integration).
    static let launchers: [StaticString] = ["gnome", "kde", "flatpak", "snap", "xfce", "sway", "hyprland", "niri", "cosmic", "dbus"]

    /// The unit's kind, with its name written into `name` (replacing what it held) and, for
    /// an app, where its application id lies in `bare` (the unit's name with systemd's
    /// `\xNN` escapes taken back, written there), for a look-up in the desktop files.
    public static func describe(_ unit: UnsafeRawBufferPointer, name: inout [UInt8], bare: inout [UInt8]) -> (kind: UnitKind, appID: Range<Int>?) {
        unescape(unit, into: &bare)
        name.removeAll(keepingCapacity: true)
        let scope = hasSuffix(bare, ".scope"), service = hasSuffix(bare, ".service")
        if scope, hasPrefix(bare, "docker-") { return container("docker ", bare, from: 7, into: &name) }
        if isContainerID(bare[...]) { return container("docker ", bare, from: 0, into: &name) }
        if hasPrefix(bare, "libpod-conmon-") { return container("podman conmon ", bare, from: 14, into: &name) }
        if scope, hasPrefix(bare, "libpod-") { return container("podman ", bare, from: 7, into: &name) }
        if scope, hasPrefix(bare, "session-") { append("session", to: &name); return (.session, nil) }
        if equals(bare, "init.scope") { append("systemd", to: &name); return (.system, nil) }
        if hasPrefix(bare, "app-"), let id = appID(bare) {
            appendShortName(bare[id], to: &name)
            return (.app, id)
        }
        if service {
            var end = bare.count - 8
            // A template's instance (`getty@tty1`) keeps its instance; a template alone drops its `@`.
            if end > 0, bare[end - 1] == UInt8(ascii: "@") { end -= 1 }
            name.append(contentsOf: bare[0..<end])
            return (.service, nil)
        }
        name.append(contentsOf: bare[0..<(scope ? bare.count - 6 : bare.count)])
        return (.system, nil)
    }

    /// Whether a name is a container's whole id, 64 lowercase hex digits (Docker's cgroupfs
    /// driver names its folders so).
    public static func isContainerID(_ name: ArraySlice<UInt8>) -> Bool {
        name.count == 64 && name.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// A container's runtime and the first 12 characters of its id.
    private static func container(_ runtime: StaticString, _ bare: [UInt8], from: Int, into name: inout [UInt8]) -> (kind: UnitKind, appID: Range<Int>?) {
        append(runtime, to: &name)
        let end = hasSuffix(bare, ".scope") ? bare.count - 6 : bare.count
        name.append(contentsOf: bare[from..<min(end, from + 12)])
        return (.container, nil)
    }

    /// Where the application id lies in an app scope or service's name:
    /// `app[-LAUNCHER]-ID-RANDOM.scope` or `app[-LAUNCHER]-ID[@RANDOM].service`; nil where none.
    public static func appID(_ bare: [UInt8]) -> Range<Int>? {
        var start = 4, end: Int
        if hasSuffix(bare, ".scope") {
            end = bare.count - 6
            // The random part after the id's last dash (a pid, or a hex string).
            guard let dash = lastIndex(of: UInt8(ascii: "-"), in: bare, start..<end) else { return nil }
            end = dash
        } else if hasSuffix(bare, ".service") {
            end = bare.count - 8
            if let at = firstIndex(of: UInt8(ascii: "@"), in: bare, start..<end) { end = at }
        } else {
            return nil
        }
        for launcher in launchers where hasPrefix(bare, launcher, at: start) && start + launcher.utf8CodeUnitCount < end
            && bare[start + launcher.utf8CodeUnitCount] == UInt8(ascii: "-") {
            start += launcher.utf8CodeUnitCount + 1
            break
        }
        return start < end ? start..<end : nil
    }

    /// `org.gnome.Terminal` → `Terminal`; `firefox` → `firefox`.
    /// The id's last part between dots that is not empty; the whole id where it has no dot.
    public static func appendShortName(_ id: ArraySlice<UInt8>, to name: inout [UInt8]) {
        let dot = UInt8(ascii: ".")
        var end = id.endIndex
        while end > id.startIndex && id[end - 1] == dot { end -= 1 }
        guard end > id.startIndex, id.contains(dot) else { name.append(contentsOf: id); return }
        var start = end
        while start > id.startIndex && id[start - 1] != dot { start -= 1 }
        name.append(contentsOf: id[start..<end])
    }

    /// systemd's escapes in unit names (`\x2d` for a dash in an id) taken back.
    public static func unescape(_ unit: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var i = 0
        while i < unit.count {
            if unit[i] == 0x5C, i + 3 < unit.count, unit[i + 1] == 0x78, let high = hex(unit[i + 2]), let low = hex(unit[i + 3]) {
                out.append(high << 4 | low)
                i += 4
            } else {
                out.append(unit[i])
                i += 1
            }
        }
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x61...0x66: return b - 0x61 + 10
        case 0x41...0x46: return b - 0x41 + 10
        default: return nil
        }
    }

    static func hasPrefix(_ bytes: [UInt8], _ literal: StaticString, at start: Int = 0) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard bytes.count - start >= n else { return false }
        for i in 0..<n where bytes[start + i] != literal.utf8Start[i] { return false }
        return true
    }

    static func hasSuffix(_ bytes: [UInt8], _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        return bytes.count > n && hasPrefix(bytes, literal, at: bytes.count - n)
    }

    static func equals(_ bytes: [UInt8], _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && hasPrefix(bytes, literal)
    }

    static func append(_ literal: StaticString, to name: inout [UInt8]) {
        for i in 0..<literal.utf8CodeUnitCount { name.append(literal.utf8Start[i]) }
    }

    private static func lastIndex(of byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var i = range.upperBound
        while i > range.lowerBound { i -= 1; if bytes[i] == byte { return i } }
        return nil
    }

    private static func firstIndex(of byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        for i in range where bytes[i] == byte { return i }
        return nil
    }
}
