/// Reads /proc/pressure/memory (pressure stall information, Linux ≥ 4.20):
///
///     some avg10=0.00 avg60=0.00 avg300=0.00 total=0
///     full avg10=0.00 avg60=0.00 avg300=0.00 total=0
///
/// Averages are percentages, kept times 100; `total` is ignored.
public final class PressureReader {
    /// nil when the kernel is known to predate PSI: the file is then never opened.
    private let file: ProcFile?
    /// The last successful reading.
    public private(set) var reading = MemoryPressure()

    /// Prepares to read `<procRoot>/pressure/memory`. When `kernel` is known and older
    /// than 4.20 the reader is disabled and never touches the file. Never fails.
    public init(procRoot: String = "/proc", kernel: KernelRelease?) {
        if let kernel, !kernel.supportsPressureStall {
            file = nil
        } else {
            file = ProcFile(joinPath(procRoot, "pressure/memory"))
        }
    }

    /// Whether the reader may read the file (false when the kernel predates PSI).
    public var isEnabled: Bool { file != nil }

    /// Re-reads /proc/pressure/memory into `buffer`; nil when the kernel predates PSI, the
    /// file is absent (built without PSI, or booted with psi=0), unreadable or unparsable.
    public func update(_ buffer: ReadBuffer) -> MemoryPressure? {
        guard let file, case .success(let bytes) = file.read(into: buffer) else { return nil }
        var fresh = MemoryPressure()
        guard Self.parse(bytes, into: &fresh) else { return nil }
        reading = fresh
        return fresh
    }

    /// Parses the `some` and `full` lines into `pressure`. False without a valid `some`
    /// line; a missing `full` line leaves the full averages 0.
    public static func parse(_ bytes: UnsafeRawBufferPointer, into pressure: inout MemoryPressure) -> Bool {
        var sawSome = false
        var s = ByteScanner(bytes)
        while !s.isAtEnd {
            if s.consume("some ", low: 0x0000_0020_656D_6F73) {
                guard let a = averages(&s) else { return false }
                (pressure.someAvg10, pressure.someAvg60, pressure.someAvg300) = a
                sawSome = true
            } else if s.consume("full ", low: 0x0000_0020_6C6C_7566) {
                guard let a = averages(&s) else { return false }
                (pressure.fullAvg10, pressure.fullAvg60, pressure.fullAvg300) = a
            }
            s.skipLine()
        }
        return sawSome
    }

    /// `avg10=X avg60=Y avg300=Z`, each times 100.
    private static func averages(_ s: inout ByteScanner) -> (UInt32, UInt32, UInt32)? {
        s.skipBlanks()
        guard s.consume("avg10=", low: 0x0000_3D30_3167_7661), let a10 = s.fixedPoint(scale: 2) else { return nil }
        s.skipBlanks()
        guard s.consume("avg60=", low: 0x0000_3D30_3667_7661), let a60 = s.fixedPoint(scale: 2) else { return nil }
        s.skipBlanks()
        guard s.consume("avg300=", low: 0x003D_3030_3367_7661), let a300 = s.fixedPoint(scale: 2) else { return nil }
        return (UInt32(clamping: a10), UInt32(clamping: a60), UInt32(clamping: a300))
    }
}
