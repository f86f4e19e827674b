import CLibc

/// One process NVML lists as using a GPU.
public struct NVMLProcess: Equatable, Sendable {
    public var pid: Int32
    /// NVML's index of the GPU.
    public var card: Int
    /// Its memory on that GPU, bytes; nil where NVML does not say.
    public var vramBytes: UInt64?
    /// Its share of the GPU's streaming multiprocessors in NVML's newest sample, percent; nil
    /// where NVML has none.
    public var smPercent: UInt64?
    public init(pid: Int32, card: Int, vramBytes: UInt64?, smPercent: UInt64?) {
        self.pid = pid; self.card = card; self.vramBytes = vramBytes; self.smPercent = smPercent
    }
}

/// What the NVIDIA helper (`sysstatsd-gpu`, which loads NVML so that the sampler never
/// does) writes on its stdout: one frame per interval, lines of ASCII words separated by
/// one space, `-` for a figure NVML did not give:
///
///     gpu INDEX BUSY% MEMBUSY% VRAM_USED VRAM_TOTAL CELSIUS MILLIWATTS CLOCK_MHZ FAN% LIMIT_MILLIWATTS NAME
///     proc PID INDEX VRAM_BYTES SM%
///     end
///
/// (bytes for memory; NAME runs to the end of the line). `error TEXT` says why the helper
/// stops. Another program could sit at the helper's path, so the reader takes nothing on
/// trust: a line it cannot read is skipped, a number too large is clamped, at most
/// ``GPUCards/maximumCards`` cards count, and a line longer than the buffer drops what was
/// buffered.
public final class NVMLHelperOutput {
    /// The most bytes buffered: the helper's frame at its longest (8 cards with 64 processes
    /// each, about 26 KiB; it writes at most 64 KiB, its `end` line always whole).
    public static let capacity = 64 * 1024
    private var buffer = HelperOutputBuffer(capacity: NVMLHelperOutput.capacity)
    /// The last `error` line's text (a fresh one replaces it).
    public private(set) var error: [UInt8] = []
    /// The processes using the GPUs, as the last whole frame listed them (`proc` lines; at
    /// most ``maximumProcesses``; `vramBytes` nil where NVML does not say).
    public private(set) var processes: [NVMLProcess] = []
    public static let maximumProcesses = 256

    public init() {}

    /// Reads what `fd` has (non-blocking: until it would block, is at its end, or the buffer
    /// is full). Returns false at the end of the stream or on an error but EAGAIN and EINTR.
    public func fill(from fd: FileDescriptor) -> Bool { buffer.fill(from: fd) }

    /// Appends `data` as if read (tests, the fuzz target).
    public func append(_ data: UnsafeRawBufferPointer) { buffer.append(data) }

    /// Parses the complete frames buffered into `readings` (the last one wins) and drops
    /// them; true when a frame was complete.
    public func takeFrames(into readings: inout [GPUReading]) -> Bool {
        var took = false
        var lineStart = 0, frameStart = 0
        let filled = buffer.filled
        buffer.bytes.withUnsafeBytes { all in
            var i = 0
            while i < filled {
                guard all[i] == 0x0A else { i += 1; continue }
                let line = UnsafeRawBufferPointer(rebasing: all[lineStart..<i])
                if bytesEqual(line, "end") {
                    let frame = UnsafeRawBufferPointer(rebasing: all[frameStart..<lineStart])
                    Self.parseFrame(frame, into: &readings, error: &error)
                    Self.parseProcesses(frame, into: &processes)
                    took = true
                    frameStart = i + 1
                }
                i += 1
                lineStart = i
            }
        }
        buffer.dropFirst(frameStart)
        return took
    }

    /// The `gpu` lines of one frame (without its `end` line) into `readings`, which keeps
    /// as many entries as there were readable lines.
    public static func parseFrame(_ frame: UnsafeRawBufferPointer, into readings: inout [GPUReading],
                                  error: inout [UInt8]) {
        var n = 0
        var s = ByteScanner(frame)
        while let line = s.nextLine() {
            if line.count > 6, bytesEqual(UnsafeRawBufferPointer(rebasing: line[0..<6]), "error ") {
                error = Array(line[6..<min(line.count, 6 + 200)])
                continue
            }
            guard n < GPUCards.maximumCards, line.count > 4,
                  bytesEqual(UnsafeRawBufferPointer(rebasing: line[0..<4]), "gpu ") else { continue }
            if n == readings.count { readings.append(GPUReading()) }
            if parseGPULine(UnsafeRawBufferPointer(rebasing: line[4...]), into: &readings[n]) { n += 1 }
        }
        if readings.count > n { readings.removeLast(readings.count - n) }
    }

    /// The `proc PID INDEX VRAM_BYTES [SM%]` lines of one frame (`-` when unknown).
    static func parseProcesses(_ frame: UnsafeRawBufferPointer, into processes: inout [NVMLProcess]) {
        processes.removeAll(keepingCapacity: true)
        var s = ByteScanner(frame)
        while processes.count < maximumProcesses, let line = s.nextLine() {
            guard line.count > 5, bytesEqual(UnsafeRawBufferPointer(rebasing: line[0..<5]), "proc ") else { continue }
            var l = ByteScanner(UnsafeRawBufferPointer(rebasing: line[5...]))
            guard let pid = l.unsigned(), pid > 0, pid <= UInt64(Int32.max), l.current == 0x20 else { continue }
            l.position += 1
            guard let card = l.unsigned(), card < 256, l.current == 0x20 else { continue }
            l.position += 1
            guard let vram = Self.optionalFigure(&l) else { continue }
            var sm: UInt64?? = .some(nil)
            if l.current == 0x20 {
                l.position += 1
                sm = Self.optionalFigure(&l)
            }
            guard let smPercent = sm, l.isAtEnd else { continue }
            processes.append(NVMLProcess(pid: Int32(pid), card: Int(card), vramBytes: vram, smPercent: smPercent.map { min($0, 100) }))
        }
    }

    /// A number or `-` (nil): `.some(nil)` for `-`, nil for neither.
    private static func optionalFigure(_ l: inout ByteScanner) -> UInt64?? {
        if l.current == UInt8(ascii: "-") { l.position += 1; return .some(nil) }
        guard let v = l.unsigned() else { return nil }
        return .some(v)
    }

    /// `INDEX BUSY MEMBUSY USED TOTAL CELSIUS MILLIWATTS CLOCK FAN NAME`.
    static func parseGPULine(_ line: UnsafeRawBufferPointer, into r: inout GPUReading) -> Bool {
        var s = ByteScanner(line)
        // The ten figures, and which were given (bit i: figure i); no array: nothing allocated.
        var figures: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var given = 0
        let ok = withUnsafeMutableBytes(of: &figures) { raw -> Bool in
            let values = raw.bindMemory(to: UInt64.self)
            for i in 0..<10 {
                if s.current == UInt8(ascii: "-") {
                    s.position += 1
                } else {
                    guard let v = s.unsigned() else { return false }
                    values[i] = v
                    given |= 1 << i
                }
                guard s.current == 0x20 else { return false }
                s.position += 1
            }
            return true
        }
        guard ok, given & 1 != 0, figures.0 < 256 else { return false }
        r = GPUReading()
        r.index = Int(figures.0)
        r.driver = FixedName("nvidia")
        r.name = FixedName(UnsafeRawBufferPointer(rebasing: line[s.position...]))
        if given & 1 << 1 != 0 { r.busy = GPUCards.permyriad(percent: figures.1); r.known |= GPUReading.busyKnown }
        if given & 1 << 2 != 0 { r.memoryBusy = GPUCards.permyriad(percent: figures.2); r.known |= GPUReading.memoryBusyKnown }
        if given & (1 << 3 | 1 << 4) == 1 << 3 | 1 << 4 {
            r.vramUsedBytes = figures.3; r.vramTotalBytes = figures.4; r.known |= GPUReading.vramKnown
        }
        if given & 1 << 5 != 0 { r.milliCelsius = Int32(clamping: saturatingProduct(figures.5, 1000)); r.known |= GPUReading.temperatureKnown }
        if given & 1 << 6 != 0 { r.milliwatts = UInt32(clamping: figures.6); r.known |= GPUReading.powerKnown }
        if given & 1 << 7 != 0 { r.clockMHz = UInt32(clamping: figures.7); r.known |= GPUReading.clockKnown }
        if given & 1 << 8 != 0 { r.fan = UInt32(clamping: figures.8); r.known |= GPUReading.fanKnown }
        if given & 1 << 9 != 0 { r.powerLimitMilliwatts = UInt32(clamping: figures.9); r.known |= GPUReading.powerLimitKnown }
        return true
    }
}
