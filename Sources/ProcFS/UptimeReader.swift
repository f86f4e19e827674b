/// Reads /proc/uptime, `"12345.67 23456.78"` (seconds up, seconds idle summed over CPUs),
/// into centiseconds.
public final class UptimeReader {
    private let file: ProcFile
    /// The last successful reading.
    public private(set) var reading = Uptime()

    /// Prepares to read `<procRoot>/uptime`; opens it on the first update. Never fails.
    public init(procRoot: String = "/proc") {
        file = ProcFile(joinPath(procRoot, "uptime"))
    }

    /// Re-reads /proc/uptime into `buffer`; nil when unreadable or unparsable (show a placeholder).
    public func update(_ buffer: ReadBuffer) -> Uptime? {
        guard case .success(let bytes) = file.read(into: buffer) else { return nil }
        var fresh = Uptime()
        guard Self.parse(bytes, into: &fresh) else { return nil }
        reading = fresh
        return fresh
    }

    /// Parses the two numbers of /proc/uptime into `uptime`; false unless both are there.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into uptime: inout Uptime) -> Bool {
        var s = ByteScanner(bytes)
        guard let up = s.fixedPoint(scale: 2), let idle = s.fixedPoint(scale: 2) else { return false }
        uptime.uptimeCentiseconds = up
        uptime.idleCentiseconds = idle
        return true
    }
}
