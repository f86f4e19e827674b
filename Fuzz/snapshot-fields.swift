// Fuzz target `snapshot-fields`: a Snapshot built field by field from the input
// bytes, so that every value a field's type allows reaches the renderers, including
// the ones no sampler writes and a checksum keeps the `snapshot` target from reaching
// often: memory figures near UInt64.max, used above total, shares above 100 %,
// minutesRemaining near UInt32.max, exits in the future. Counts and name lengths stay
// within what the decoder accepts (a renderer never sees more); the bytes of names are
// anything. The renderer's own usage (measured by the program, not read from a file)
// takes 32-bit values.
//
// Properties: every output renders and passes the checks of Support/Bar/Outputs.swift,
// at a panel size taken from the input (64x24 to 1024x256); and the snapshot survives
// an encode and decode unchanged, apart from what the codec documents (no iowait
// history is written as zeros; shares decode clamped to 100 %, Wi-Fi quality to 100).

import BarCore
import SnapshotCodec

/// What the decoder does to shares: each at most 100 % (10,000 ‱); Wi-Fi quality at most
/// 100, 255 (unknown) aside.
func clampShares(_ s: inout Snapshot) {
    let whole = Snapshot.wholeShare
    s.cpuBusy = min(s.cpuBusy, whole); s.cpuIOWait = min(s.cpuIOWait, whole); s.samplerCPU = min(s.samplerCPU, whole)
    s.memoryPressure = s.memoryPressure.map { min($0, whole) }
    s.battery.percent = min(s.battery.percent, whole)
    s.coreBusy = s.coreBusy.map { min($0, whole) }
    s.cpuHistory = s.cpuHistory.map { min($0, whole) }
    s.iowaitHistory = s.iowaitHistory.map { min($0, whole) }
    s.memoryHistory = s.memoryHistory.map { min($0, whole) }
    for i in s.interfaces.indices where s.interfaces[i].wifi.qualityPercent != 255 {
        s.interfaces[i].wifi.qualityPercent = min(s.interfaces[i].wifi.qualityPercent, 100)
    }
}

func name(_ r: inout FieldReader) -> [UInt8] {
    r.bytes(Int(r.u8()) % (Snapshot.maximumNameLength + 1))
}

func snapshot(_ r: inout FieldReader) -> Snapshot {
    var s = Snapshot()
    s.sequence = r.u64()
    s.timestampMs = r.u64()
    s.intervalMs = r.u32()
    s.bootTime = r.u64()
    s.uptimeCentiseconds = r.u64()
    s.cpuBusy = r.u16()
    s.cpuIOWait = r.u16()
    s.samplerCPU = r.u16()
    s.samplerResidentKiB = r.u32()
    s.memory.total = r.u64()
    s.memory.free = r.u64()
    s.memory.active = r.u64()
    s.memory.inactive = r.u64()
    s.memory.wired = r.u64()
    s.memory.other = r.u64()
    s.memory.available = r.u64()
    s.memory.used = r.u64()
    s.memory.swapTotal = r.u64()
    s.memory.swapUsed = r.u64()
    let pressure = r.u16()
    s.memoryPressure = pressure == 0xFFFF ? nil : pressure
    s.load1 = r.u32(); s.load5 = r.u32(); s.load15 = r.u32()
    s.processCount = r.u32()
    s.runningCount = r.u32()
    s.battery.count = r.u8()
    s.battery.state = BatteryFigures.State(rawValue: r.u8() % 5)!
    s.battery.percent = r.u16()
    s.battery.powerMilliwatts = r.u32()
    s.battery.minutesRemaining = r.u32()
    s.urgent = UrgentFlags(rawValue: r.u32())
    for _ in 0..<(Int(r.u16()) % (Snapshot.maximumCores + 1)) { s.coreBusy.append(r.u16()) }
    let points = Int(r.u8()) % (Snapshot.historyLength + 1)
    let withIOWait = r.u8() & 1 == 0
    for _ in 0..<points {
        s.cpuHistory.append(r.u16())
        if withIOWait { s.iowaitHistory.append(r.u16()) }
        s.memoryHistory.append(r.u16())
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumTopEntries + 1)) {
        s.topCPU.append(ProcessEntry(pid: r.u32(), cpu: r.u16(), privateKiB: r.u64(), name: name(&r)))
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumTopEntries + 1)) {
        s.topMemory.append(ProcessEntry(pid: r.u32(), cpu: r.u16(), privateKiB: r.u64(), name: name(&r)))
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumExits + 1)) {
        s.exits.append(ExitEntry(pid: r.u32(), timeMs: r.u64(), lastPrivateKiB: r.u64(), freedKiB: r.u64(),
                                 name: name(&r)))
    }
    // The listed parts (fans, power, media): any figure of any sign, any bytes in names and texts at their limits.
    for part in ListedPart.all {
        let count = Int(r.u8()) % (part.maximumReadings + 1)
        if count > 0 { s.available.formUnion(part.part) }
        _ = s.listed.update(part.tag) { list in
            for _ in 0..<count {
                var reading = PartReading()
                reading.reset(source: r.bytes(Int(r.u8()) % (Snapshot.maximumInterfaceNameLength + 1)),
                              label: r.bytes(Int(r.u8()) % (Snapshot.maximumPathLength + 1)))
                let given = r.u16()
                for f in 0..<part.figures.count where given & (1 << UInt16(f)) != 0 { reading[f] = Int64(bitPattern: r.u64()) }
                for t in 0..<part.texts.count { reading.setText(t, r.bytes(Int(r.u8()) % (PartReading.maximumTextLength + 1))) }
                list.append(reading)
            }
        }
    }
    return s
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshotFields(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var r = FieldReader(UnsafeRawBufferPointer(start: data, count: size))
    let snap = snapshot(&r)
    let nowMs = r.u64()
    let usage = RendererUsage(cpu: UInt64(r.u32()), residentKiB: UInt64(r.u32()))
    // One input in eight draws the panel at a size from the input (up to 1024x256, whose
    // PNG and its check cost milliseconds); the others at the default size, so the
    // target keeps a useful pace.
    let sized = r.u8() & 7 == 0
    let rawWidth = Int(r.u16()), rawHeight = Int(r.u8())
    let width = sized ? PanelImage.minimumWidth + rawWidth % (PanelImage.maximumWidth - PanelImage.minimumWidth + 1)
                      : PanelImage.defaultWidth
    let height = sized ? PanelImage.minimumHeight + rawHeight % (PanelImage.maximumHeight - PanelImage.minimumHeight + 1)
                       : PanelImage.defaultHeight
    // Parts not measured (n/a) in one input in four: every block and placeholder's n/a path.
    let partsByte = r.u32()
    var shown = snap
    if partsByte & 3 == 0 { shown.available = SnapshotSections(rawValue: (partsByte >> 2) & SnapshotSections.all.rawValue) }

    var encoded: [UInt8] = []
    snap.encode(into: &encoded)
    var expected = snap
    if expected.iowaitHistory.isEmpty { expected.iowaitHistory = Array(repeating: 0, count: snap.cpuHistory.count) }
    clampShares(&expected)
    let decoded = encoded.withUnsafeBytes { try? Snapshot.decode($0) }
    expect(decoded == expected, "the snapshot does not survive an encode and decode", encoded)

    renderEverything(shown, nowMs: nowMs, usage: usage, width: width, height: height)
    return 0
}
