/// Reads `<sysRoot>/class/net/NAME/operstate` (`up`, `down`, `unknown`, …; RFC 2863), the
/// network probe's source of link state when there is no netlink (a fixture tree).
///
/// Each interface's file is opened on its first read and kept open; at most `capacity`
/// interfaces are tracked (later ones read as not up). The path is built from the name's
/// bytes: a name that is not a single path component (empty, `.`, `..`, holding a slash
/// or a NUL — /proc/net/dev is outside input) is never opened.
public final class OperstateReader {
    private var path: BytePath
    private let capacity: Int
    private var names: [FixedName] = []
    private var files: [ProcFile] = []

    private let file: StaticString

    /// Prepares to read `file` (`operstate`, `speed`) under `<sysRoot>/class/net`; opens
    /// nothing yet. Never fails.
    public init(sysRoot: String = "/sys", capacity: Int = 16, file: StaticString = "operstate") {
        path = BytePath(sysRoot)
        path.append("/class/net")
        self.file = file
        self.capacity = max(0, capacity)
        names.reserveCapacity(self.capacity)
        files.reserveCapacity(self.capacity)
    }

    /// Whether interface `name`'s operstate starts with `up`; false when it is unreadable,
    /// the name is not a path component, or `capacity` other interfaces are tracked already.
    public func isUp(_ name: FixedName, buffer: ReadBuffer) -> Bool {
        guard let file = file(for: name), case .success(let bytes) = file.read(into: buffer) else { return false }
        return bytes.count >= 2 && bytes[0] == UInt8(ascii: "u") && bytes[1] == UInt8(ascii: "p")
    }

    /// The file's signed decimal (`speed`: Mbit/s, -1 when the driver does not know); nil
    /// when it cannot be read (`speed` of a link that is down or wireless: EINVAL).
    public func signedValue(_ name: FixedName, buffer: ReadBuffer) -> Int64? {
        guard let file = file(for: name), case .success(let bytes) = file.read(into: buffer) else { return nil }
        var s = ByteScanner(bytes)
        return s.signed()
    }

    private func file(for name: FixedName) -> ProcFile? {
        for i in 0..<names.count where names[i] == name { return files[i] }
        guard names.count < capacity, Self.isComponent(name) else { return nil }
        let directoryLength = path.count
        defer { path.truncate(to: directoryLength) }
        path.append("/")
        name.withUnsafeBytes { path.append($0) }
        path.append("/")
        path.append(file)
        let file = ProcFile(path.string)
        names.append(name)
        files.append(file)
        return file
    }

    private static func isComponent(_ name: FixedName) -> Bool {
        if name.isEmpty || name.equals(".") || name.equals("..") { return false }
        for i in 0..<name.count where name[i] == 0x2F || name[i] == 0 { return false }
        return true
    }
}
