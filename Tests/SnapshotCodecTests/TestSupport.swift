import SnapshotCodec
import XCTest

/// Deterministic PRNG (SplitMix64) so that fuzz failures reproduce from the seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// `count` random bytes, eight per step (fast enough in debug builds).
    mutating func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var i = 0
        while i < count {
            var word = next()
            for _ in 0..<min(8, count - i) { out[i] = UInt8(truncatingIfNeeded: word); word >>= 8; i += 1 }
        }
        return out
    }
}

/// A name of exactly `length` bytes, printable ASCII plus some multi-byte characters.
func testName(_ seed: Int, length: Int = Snapshot.maximumNameLength) -> [UInt8] {
    var name = Array("n\(seed)-é€\"<b>\\".utf8)
    let fill = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    var i = seed
    while name.count < length { name.append(fill[i % fill.count]); i += 7 }
    return Array(name.prefix(length))
}

/// A fixed snapshot with every field non-default and every count and name at its limit;
/// without `newerParts`, only the parts formats v1 and v2 carry (what their files decode to).
func fullSnapshot(newerParts: Bool = true) -> Snapshot {
    var s = Snapshot()
    s.sequence = 0x0102_0304_0506_0708
    s.timestampMs = 1_763_750_000_123
    s.intervalMs = 1000
    s.bootTime = 1_763_700_000
    s.uptimeCentiseconds = 5_000_012
    s.cpuBusy = 4321
    s.cpuIOWait = 123
    s.coreBusy = (0..<Snapshot.maximumCores).map { Permyriad(($0 * 37) % 10001) }
    s.samplerCPU = 12
    s.samplerResidentKiB = 3100
    s.memory.total = 16_384_000
    s.memory.free = 1_000_000
    s.memory.active = 6_000_000
    s.memory.inactive = 5_000_000
    s.memory.wired = 2_000_000
    s.memory.other = 2_384_000
    s.memory.available = 9_000_000
    s.memory.used = 7_384_000
    s.memory.swapTotal = 8_000_000
    s.memory.swapUsed = 123_456
    s.memoryPressure = 250
    s.load1 = 123; s.load5 = 456; s.load15 = 789
    s.processCount = 1000
    s.runningCount = 3
    s.battery.count = 2
    s.battery.state = .discharging
    s.battery.percent = 8765
    s.battery.powerMilliwatts = 12_345
    s.battery.minutesRemaining = 321
    s.urgent = [.batteryLow, .memoryPressure]
    s.cpuHistory = (0..<Snapshot.historyLength).map { Permyriad($0 * 150) }
    s.iowaitHistory = (0..<Snapshot.historyLength).map { Permyriad(($0 * 53) % 1000) }
    s.memoryHistory = (0..<Snapshot.historyLength).map { Permyriad(9000 - $0 * 10) }
    s.topCPU = (0..<Snapshot.maximumTopEntries).map {
        ProcessEntry(pid: UInt32(1000 + $0), cpu: UInt16(20000 - $0 * 100), privateKiB: UInt64(50_000 + $0), name: testName($0))
    }
    s.topMemory = (0..<Snapshot.maximumTopEntries).map {
        ProcessEntry(pid: UInt32(2000 + $0), cpu: UInt16($0), privateKiB: UInt64(4_000_000 - $0 * 1000), name: testName(10 + $0))
    }
    s.exits = (0..<Snapshot.maximumExits).map {
        ExitEntry(pid: UInt32(3000 + $0), timeMs: 1_763_749_999_000 - UInt64($0) * 1000,
                  lastPrivateKiB: UInt64(700_000 + $0), freedKiB: UInt64($0 * 1024), name: testName(20 + $0))
    }
    guard newerParts else { return s }
    s.threadCount = 4321
    s.topGPU = (0..<Snapshot.maximumTopEntries).map {
        ProcessEntry(pid: UInt32(5000 + $0), cpu: UInt16(10_000 - $0 * 100), privateKiB: UInt64(8_000_000 - $0), name: testName(30 + $0))
    }
    s.available = .all
    s.interfaces = (0..<Snapshot.maximumInterfaces).map { i in
        var n = InterfaceFigures()
        n.name = Array(testName(30 + i, length: Snapshot.maximumInterfaceNameLength))
        n.flags = InterfaceFigures.Flags(rawValue: UInt8(0x3F) >> UInt8(i % 3))
        n.rxBytesPerSecond = UInt64(1_000_000 + i); n.txBytesPerSecond = UInt64(20_000 + i)
        n.rxBytes = UInt64.max - UInt64(i); n.txBytes = UInt64(5_000_000_000 + i)
        n.ipv4 = Array("255.255.255.\(200 + i)".utf8) + Array(repeating: UInt8(ascii: "0"), count: 24)
        n.ipv6 = Array("2001:0db8:ffff:ffff:ffff:ffff:ffff:ff\(10 + i)".utf8)
        n.wifi.ssid = (0..<Snapshot.maximumSSIDLength).map { UInt8(truncatingIfNeeded: $0 * 37 + i) }
        n.wifi.signalDBm = Int16(-40 - i)
        n.wifi.qualityPercent = UInt8(100 - i)
        n.wifi.bitrateKbps = UInt32(866_700 + i)
        n.linkSpeedMbps = i == 0 ? 2500 : UInt32(1000 * i)
        return n
    }
    s.disks = (0..<Snapshot.maximumDisks).map { i in
        var d = DiskFigures()
        d.mount = testName(40 + i, length: Snapshot.maximumPathLength)
        d.totalKiB = UInt64(500_000_000 + i); d.usedKiB = UInt64(200_000_000 + i); d.availableKiB = UInt64(275_000_000 + i)
        return d
    }
    s.diskIO = (0..<Snapshot.maximumDiskDevices).map { i in
        var d = DiskIOFigures()
        d.device = testName(50 + i, length: Snapshot.maximumInterfaceNameLength)
        d.readBytesPerSecond = UInt64(30_000_000 + i); d.writeBytesPerSecond = UInt64(4_000 + i)
        d.readBytes = UInt64(9_000_000_000 + i); d.writeBytes = UInt64(8_000_000_000 + i)
        return d
    }
    s.temperatures = (0..<Snapshot.maximumSensors).map { i in
        var t = TemperatureFigures()
        t.chip = testName(60 + i, length: Snapshot.maximumInterfaceNameLength)
        t.label = testName(70 + i, length: Snapshot.maximumPathLength)
        t.milliCelsius = Int32(45_000 + i * 1000) * (i == 7 ? -1 : 1)
        t.criticalMilliCelsius = i == 1 ? Snapshot.unknownLimit : 100_000
        t.highMilliCelsius = i == 2 ? Snapshot.unknownLimit : 80_000
        t.isCPUPackage = i == 0
        return t
    }
    s.cpuMHzAverage = 2_345
    s.cpuMHzMaximum = 4_567
    s.gpus = (0..<Snapshot.maximumGPUs).map { i in
        var g = GPUFigures()
        g.index = UInt8(i)
        g.driver = testName(80 + i, length: Snapshot.maximumInterfaceNameLength)
        g.name = testName(90 + i, length: Snapshot.maximumPathLength)
        g.known = GPUFigures.Known(rawValue: UInt16(0x1FF >> i))
        g.busy = UInt16(1_000 * i); g.memoryBusy = UInt16(10_000 - i)
        g.vramUsedBytes = UInt64(1 << 33) + UInt64(i); g.vramTotalBytes = UInt64(1 << 34) + UInt64(i)
        g.gttUsedBytes = UInt64(1 << 20) + UInt64(i); g.gttTotalBytes = UInt64.max - UInt64(i)
        g.milliCelsius = Int32(60_000 + i) * (i == 3 ? -1 : 1)
        g.milliwatts = UInt32.max - UInt32(i); g.clockMHz = UInt32(2_100 + i); g.fan = UInt32(1_500 + i)
        g.powerLimitMilliwatts = UInt32(300_000 + i)
        return g
    }
    // Every listed part at its limits: names at their longest, figures of both signs, some not given.
    for part in ListedPart.all {
        _ = s.listed.update(part.tag) { list in
            list = (0..<part.maximumReadings).map { i in
                var r = PartReading()
                r.reset(source: testName(100 + i, length: Snapshot.maximumInterfaceNameLength),
                        label: testName(110 + i, length: Snapshot.maximumPathLength))
                for f in 0..<part.figures.count where (i + f) % 3 != 2 {
                    r[f] = (Int64(1_000 * i + f) + Int64(part.tag.rawValue) << 40) * (i == 5 ? -1 : 1)
                }
                for t in 0..<part.texts.count { r.setText(t, testName(120 + i + t, length: PartReading.maximumTextLength)) }
                return r
            }
        }
    }
    s.rxHistory = (0..<Snapshot.historyLength).map { UInt32.max - UInt32($0) }
    s.txHistory = (0..<Snapshot.historyLength).map { UInt32($0 * 1000) }
    return s
}

func encoded(_ snapshot: Snapshot) -> [UInt8] {
    var bytes: [UInt8] = []
    snapshot.encode(into: &bytes)
    return bytes
}

func decodeResult(_ bytes: [UInt8]) -> Result<Snapshot, SnapshotDecodeError> {
    bytes.withUnsafeBytes { raw in
        Result { () throws(SnapshotDecodeError) in try Snapshot.decode(raw) }
    }
}

/// `snapshot.decode(from:)` over an array. (Swift 6.3.1's IRGen crashes on a
/// `throws(SnapshotDecodeError)` closure passed straight to `withUnsafeBytes`,
/// hence the detour through Result.)
func decode(_ bytes: [UInt8], into snapshot: inout Snapshot) throws(SnapshotDecodeError) {
    let result = bytes.withUnsafeBytes { raw in
        Result { () throws(SnapshotDecodeError) in try snapshot.decode(from: raw) }
    }
    try result.get()
}

func decodeError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> SnapshotDecodeError? {
    switch decodeResult(bytes) {
    case .success: XCTFail("decoded, expected an error", file: file, line: line); return nil
    case .failure(let error): return error
    }
}

func storeU16(_ value: UInt16, at offset: Int, in bytes: inout [UInt8]) {
    for i in 0..<2 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt16(i))) }
}

func storeU32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
    for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
}

/// Recomputes the body checksum in the header (no-op on a buffer shorter than the header).
func fixChecksum(_ bytes: inout [UInt8]) {
    guard bytes.count >= 32 else { return }
    let crc = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[32...])) }
    storeU32(crc, at: 24, in: &bytes)
}

/// Replaces the body of an encoded snapshot and fixes total length and checksum,
/// so that only the body parser can object.
func withBody(of bytes: [UInt8], _ edit: (inout [UInt8]) -> Void) -> [UInt8] {
    var body = Array(bytes[32...])
    edit(&body)
    var out = Array(bytes[..<32]) + body
    storeU32(UInt32(out.count), at: 12, in: &out)
    fixChecksum(&out)
    return out
}

/// Body offsets of format v2 (see docs/snapshot-format.md).
enum BodyOffset {
    static let batteryState = 141
    static let coreCount = 156
    /// In a snapshot with no cores: the history counts and the list counts.
    static let cpuHistoryCountNoCores = 158
    static let iowaitHistoryCountNoCores = 159
    static let memoryHistoryCountNoCores = 160
    static let topCPUCountEmpty = 161
    static let topMemoryCountEmpty = 162
    static let exitCountEmpty = 163
}

/// The format version in an encoded snapshot's header.
func formatVersion(_ bytes: [UInt8]) -> UInt16 {
    UInt16(bytes[8]) | UInt16(bytes[9]) << 8
}

/// The v1 file of the snapshot a v2 encoding holds: the same bytes without the iowait
/// history (v2 inserts that one series after cpuHistory and changes nothing else),
/// version 1, total length and checksum fixed. The tests' only v1 writer.
func v1Bytes(fromV2 bytes: [UInt8]) -> [UInt8] {
    precondition(formatVersion(bytes) == 2)
    let cores = Int(bytes[32 + BodyOffset.coreCount]) | Int(bytes[32 + BodyOffset.coreCount + 1]) << 8
    let cpuCountAt = 32 + BodyOffset.cpuHistoryCountNoCores + 2 * cores
    let points = Int(bytes[cpuCountAt])
    let iowaitAt = cpuCountAt + 1 + 2 * points
    var out = bytes
    out.removeSubrange(iowaitAt..<(iowaitAt + 1 + 2 * points))
    storeU16(1, at: 8, in: &out)
    storeU32(UInt32(out.count), at: 12, in: &out)
    fixChecksum(&out)
    return out
}

/// A v1 or v2 file with every share clamped to 10,000 ‱ as the decoder clamps it (memory
/// pressure's 0xFFFF, "none", kept), checksum fixed: what the writer writes for the value
/// such a file decodes to.
func sharesClamped(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    func clamp(_ at: Int, keeping none: UInt16? = nil) {
        let value = UInt16(out[at]) | UInt16(out[at + 1]) << 8
        if value > Snapshot.wholeShare && value != none { storeU16(Snapshot.wholeShare, at: at, in: &out) }
    }
    let body = 32
    for offset in [28, 30, 32, 142] { clamp(body + offset) }
    clamp(body + 118, keeping: SnapshotFormat.noPressure)
    let cores = Int(out[body + BodyOffset.coreCount]) | Int(out[body + BodyOffset.coreCount + 1]) << 8
    for k in 0..<cores { clamp(body + BodyOffset.coreCount + 2 + 2 * k) }
    var at = body + BodyOffset.cpuHistoryCountNoCores + 2 * cores
    // The histories: cpu, (v2) iowait, memory; each a u8 count and its points.
    for _ in 0..<(formatVersion(bytes) >= 2 ? 3 : 2) {
        let points = Int(out[at])
        for k in 0..<points { clamp(at + 1 + 2 * k) }
        at += 1 + 2 * points
    }
    fixChecksum(&out)
    return out
}
