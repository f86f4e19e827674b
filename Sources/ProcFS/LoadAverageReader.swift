/// Reads /proc/loadavg, `"0.52 0.58 0.59 2/345 12345"`: the 1, 5 and 15 minute load
/// averages (times 100), runnable/total scheduling entities, the last pid allocated.
public final class LoadAverageReader {
    private let file: ProcFile
    /// The last successful reading.
    public private(set) var reading = LoadAverage()

    /// Prepares to read `<procRoot>/loadavg`; opens it on the first update. Never fails.
    public init(procRoot: String = "/proc") {
        file = ProcFile(joinPath(procRoot, "loadavg"))
    }

    /// Re-reads /proc/loadavg into `buffer`; nil when unreadable or unparsable (show a placeholder).
    public func update(_ buffer: ReadBuffer) -> LoadAverage? {
        guard case .success(let bytes) = file.read(into: buffer) else { return nil }
        var fresh = LoadAverage()
        guard Self.parse(bytes, into: &fresh) else { return nil }
        reading = fresh
        return fresh
    }

    /// Parses /proc/loadavg into `load`; false unless the three averages and `runnable/total` are there.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into load: inout LoadAverage) -> Bool {
        var s = ByteScanner(bytes)
        guard let l1 = s.fixedPoint(scale: 2), let l5 = s.fixedPoint(scale: 2),
              let l15 = s.fixedPoint(scale: 2), let runnable = s.unsigned(),
              s.current == 0x2F else { return false }  // "/", by value: no literal read each second
        s.position += 1
        guard let entities = s.unsigned() else { return false }
        load.load1 = UInt32(clamping: l1)
        load.load5 = UInt32(clamping: l5)
        load.load15 = UInt32(clamping: l15)
        load.runnable = UInt32(clamping: runnable)
        load.entities = UInt32(clamping: entities)
        load.lastPid = s.unsigned().map { UInt32(clamping: $0) }
        return true
    }
}
