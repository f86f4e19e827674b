/// An application id's name in its desktop file (`Name=` of `[Desktop Entry]`), looked for
/// where the desktop looks: `$XDG_DATA_HOME` and `$XDG_DATA_DIRS`' `applications` folders,
/// and flatpak's (docs/metrics.md, "Units"). The sampler's units part and `top --units`.
public struct DesktopEntryNames: Sendable {
    /// The `applications` folders, in the order they are looked in.
    public let folders: [String]

    /// The folders for an environment's `HOME`, `XDG_DATA_HOME` and `XDG_DATA_DIRS`.
    public init(home: String?, dataHome: String?, dataDirs: String?) {
        let userData = dataHome ?? (home ?? "") + "/.local/share"
        var list = [userData]
        var current: [UInt8] = []
        for b in Array((dataDirs ?? "/usr/local/share:/usr/share").utf8) + [0x3A] {
            if b == 0x3A {
                if !current.isEmpty { list.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll()
            } else {
                current.append(b)
            }
        }
        list += [userData + "/flatpak/exports/share", "/var/lib/flatpak/exports/share"]
        folders = list.map { $0 + "/applications" }
    }

    /// The name of application `id`; nil where no desktop file names it (or the id could
    /// name a file outside the folders: a slash, a leading dot).
    public func name(of id: ArraySlice<UInt8>) -> [UInt8]? {
        guard !id.isEmpty, id.first != 0x2E, !id.contains(0x2F), !id.contains(0) else { return nil }
        let file = String(decoding: id, as: UTF8.self)
        for folder in folders {
            guard case .success(let bytes) = readConfigFile(folder + "/" + file + ".desktop", limit: 65_536) else { continue }
            if let name = Self.entryName(bytes) { return name }
        }
        return nil
    }

    /// `Name=` of the `[Desktop Entry]` group (not a translated `Name[fr]=`), cut at 64 bytes.
    static func entryName(_ bytes: [UInt8]) -> [UInt8]? {
        var inEntry = false
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<end]
            start = end + 1
            if line.first == 0x5B { inEntry = line.elementsEqual(Array("[Desktop Entry]".utf8)); continue }
            if inEntry, line.starts(with: Array("Name=".utf8)) {
                let name = line.dropFirst(5).prefix(64)
                return name.isEmpty ? nil : Array(name)
            }
        }
        return nil
    }
}
