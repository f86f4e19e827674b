// Fuzz target `prometheus-text`: a Snapshot and the export's counters built field by field
// from the input bytes, every list up to its limit and every name any bytes (up to 4 KiB:
// interface, device, mount, sensor and process names from the system are outside text),
// formatted by PrometheusText as sysstatsd writes sysstats.prom.
//
// Properties, checked by a parser written here (not the code under test): the output fits
// PrometheusText.maximumSize; it is valid UTF-8 and ends with a newline; every line is a
// `# HELP name text`, a `# TYPE name gauge|counter` right after its HELP, or a sample of
// the family just declared: a metric name, labels with well-formed names and values that
// escape only `\\`, `\"` and `\n` and are at most maximumLabelBytes long, and a decimal
// number; no family is declared twice, none is empty, and no two samples of a family have
// the same labels (node_exporter would refuse the whole file).

import PrometheusText
import SnapshotCodec

func name(_ r: inout FieldReader) -> [UInt8] {
    let length = r.u8()
    // One name in sixteen is long (up to 4 KiB), the others up to 63 bytes.
    return r.bytes(length & 0xF0 == 0xF0 ? Int(r.u16()) % 4097 : Int(length & 0x3F))
}

func snapshot(_ r: inout FieldReader) -> Snapshot {
    var s = Snapshot()
    s.available = SnapshotSections(rawValue: r.u32() & SnapshotSections.all.rawValue)
    s.timestampMs = r.u64(); s.intervalMs = r.u32(); s.bootTime = r.u64(); s.uptimeCentiseconds = r.u64()
    s.cpuBusy = r.u16(); s.cpuIOWait = r.u16(); s.samplerCPU = r.u16(); s.samplerResidentKiB = r.u32()
    s.memory.total = r.u64(); s.memory.free = r.u64(); s.memory.active = r.u64(); s.memory.inactive = r.u64()
    s.memory.wired = r.u64(); s.memory.other = r.u64(); s.memory.available = r.u64()
    s.memory.swapTotal = r.u64(); s.memory.swapUsed = r.u64()
    let pressure = r.u16()
    s.memoryPressure = pressure == 0xFFFF ? nil : pressure
    s.load1 = r.u32(); s.load5 = r.u32(); s.load15 = r.u32(); s.processCount = r.u32(); s.runningCount = r.u32()
    s.battery.count = r.u8(); s.battery.state = BatteryFigures.State(rawValue: r.u8() % 5)!
    s.battery.percent = r.u16(); s.battery.powerMilliwatts = r.u32(); s.battery.minutesRemaining = r.u32()
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumTopEntries + 1)) {
        s.topCPU.append(ProcessEntry(pid: r.u32(), cpu: r.u16(), privateKiB: r.u64(), name: name(&r)))
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumTopEntries + 1)) {
        s.topMemory.append(ProcessEntry(pid: r.u32(), cpu: r.u16(), privateKiB: r.u64(), name: name(&r)))
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumInterfaces + 1)) {
        var i = InterfaceFigures(); i.name = name(&r); i.rxBytes = r.u64(); i.txBytes = r.u64()
        s.interfaces.append(i)
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumDisks + 1)) {
        var d = DiskFigures(); d.mount = name(&r); d.totalKiB = r.u64(); d.usedKiB = r.u64(); d.availableKiB = r.u64()
        s.disks.append(d)
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumDiskDevices + 1)) {
        var d = DiskIOFigures(); d.device = name(&r); d.readBytes = r.u64(); d.writeBytes = r.u64()
        s.diskIO.append(d)
    }
    for _ in 0..<(Int(r.u8()) % (Snapshot.maximumSensors + 1)) {
        var t = TemperatureFigures(); t.chip = name(&r); t.label = name(&r); t.milliCelsius = Int32(bitPattern: r.u32())
        s.temperatures.append(t)
    }
    return s
}

func counters(_ r: inout FieldReader) -> PrometheusCounters {
    var c = PrometheusCounters()
    let present = r.u8()
    if present & 1 != 0 { c.cpuTicks = .init(busy: r.u64(), iowait: r.u64(), idle: r.u64()) }
    c.ticksPerSecond = UInt64(r.u16())   // 0 included: the formatter must not divide by it
    if present & 2 != 0 { c.exits = r.u64() }
    if present & 4 != 0 { c.freedKiB = r.u64() }
    if present & 8 != 0 {
        let previous = r.u8() % 3
        c.boots = .init(clean: r.u64(), unclean: r.u64(), previousClean: previous == 2 ? nil : previous == 1)
    }
    return c
}

// MARK: - The checker

func isNameStart(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F }
func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

/// The length of the metric name (`colons`) or label name at `i`, 0 when there is none.
func nameLength(_ line: ArraySlice<UInt8>, _ i: Int, colons: Bool) -> Int {
    var j = i
    while j < line.endIndex {
        let b = line[j]
        let ok = isNameStart(b) || (colons && b == 0x3A) || (j > i && isDigit(b))
        if !ok { break }
        j += 1
    }
    return j - i
}

func checkExposition(_ out: [UInt8]) {
    expect(out.count <= PrometheusText.maximumSize, "\(out.count) bytes: more than maximumSize", out)
    var i = 0
    while i < out.count {
        let n = utf8Length(out, i)
        expect(n > 0, "invalid UTF-8 at byte \(i)", out)
        i += n
    }
    expect(out.last == 0x0A, "the output does not end with a newline", out)
    var families: [[UInt8]] = []
    var currentFamily: [UInt8] = []
    var helpFor: [UInt8] = []
    var samplesInFamily = 0
    var labelSets: [[UInt8]] = []
    var start = 0
    while start < out.count {
        var end = start
        while out[end] != 0x0A { end += 1 }
        let line = out[start..<end]
        start = end + 1
        expect(!line.isEmpty, "an empty line", out)
        let help = Array("# HELP ".utf8), type = Array("# TYPE ".utf8)
        if line.starts(with: help) {
            let n = nameLength(line, line.startIndex + help.count, colons: true)
            let nameEnd = line.startIndex + help.count + n
            expect(n > 0 && nameEnd < line.endIndex && line[nameEnd] == 0x20, "a bad HELP line", Array(line))
            expect(!line[(nameEnd + 1)...].contains(0x5C), "a backslash in HELP text", Array(line))
            if !currentFamily.isEmpty { expect(samplesInFamily > 0, "a family without samples", currentFamily) }
            helpFor = Array(line[(line.startIndex + help.count)..<nameEnd])
            expect(!families.contains(helpFor), "a family declared twice", helpFor)
            currentFamily = []
            continue
        }
        if line.starts(with: type) {
            let rest = Array(line[(line.startIndex + type.count)...])
            let kind = rest.split(separator: 0x20, omittingEmptySubsequences: false)
            expect(kind.count == 2 && Array(kind[0]) == helpFor, "TYPE not right after its HELP", Array(line))
            expect(Array(kind[1]) == Array("gauge".utf8) || Array(kind[1]) == Array("counter".utf8), "a bad TYPE", Array(line))
            if Array(kind[1]) == Array("counter".utf8) { expect(helpFor.suffix(6) == Array("_total".utf8)[...], "a counter without _total", helpFor) }
            currentFamily = helpFor
            families.append(helpFor)
            samplesInFamily = 0
            labelSets = []
            continue
        }
        // A sample.
        expect(!currentFamily.isEmpty, "a sample before any TYPE", Array(line))
        var j = line.startIndex
        let n = nameLength(line, j, colons: true)
        expect(Array(line[j..<(j + n)]) == currentFamily, "a sample outside its family", Array(line))
        j += n
        let labelsStart = j
        if j < line.endIndex && line[j] == 0x7B {   // {
            j += 1
            while true {
                let ln = nameLength(line, j, colons: false)
                expect(ln > 0, "a bad label name", Array(line))
                j += ln
                expect(j + 1 < line.endIndex && line[j] == 0x3D && line[j + 1] == 0x22, "a label without =\"", Array(line))
                j += 2
                let valueStart = j
                while true {
                    expect(j < line.endIndex, "an unterminated label value", Array(line))
                    let b = line[j]
                    if b == 0x22 { break }
                    if b == 0x5C {
                        expect(j + 1 < line.endIndex && [0x5C, 0x22, 0x6E].contains(line[j + 1]), "a bad escape", Array(line))
                        j += 2
                    } else {
                        j += 1
                    }
                }
                expect(j - valueStart <= PrometheusText.maximumLabelBytes, "a label value over the limit", Array(line))
                j += 1
                expect(j < line.endIndex, "labels not closed", Array(line))
                if line[j] == 0x2C { j += 1; continue }   // ,
                expect(line[j] == 0x7D, "labels not closed with }", Array(line))
                j += 1
                break
            }
        }
        let labelSet = Array(line[labelsStart..<j])
        expect(!labelSets.contains(labelSet), "two samples with the same labels", Array(line))
        labelSets.append(labelSet)
        expect(j < line.endIndex && line[j] == 0x20, "no space before the value", Array(line))
        j += 1
        if j < line.endIndex && line[j] == 0x2D { j += 1 }   // -
        var digits = 0
        while j < line.endIndex && isDigit(line[j]) { j += 1; digits += 1 }
        expect(digits > 0, "a value without digits", Array(line))
        if j < line.endIndex && line[j] == 0x2E {
            j += 1
            var fraction = 0
            while j < line.endIndex && isDigit(line[j]) { j += 1; fraction += 1 }
            expect(fraction > 0 && line[j - 1] != 0x30, "a bad fraction", Array(line))
        }
        expect(j == line.endIndex, "text after the value", Array(line))
        samplesInFamily += 1
    }
    expect(!currentFamily.isEmpty && samplesInFamily > 0, "the last family has no samples", out)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrometheusText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var r = FieldReader(UnsafeRawBufferPointer(start: data, count: size))
    let s = snapshot(&r)
    let c = counters(&r)
    var out: [UInt8] = []
    out.reserveCapacity(PrometheusText.maximumSize)
    PrometheusText.format(s, counters: c, into: &out)
    checkExposition(out)
    // Formatting again into the same buffer gives the same bytes (nothing kept between calls).
    var again = out
    PrometheusText.format(s, counters: c, into: &again)
    expect(again == out, "a second format differs", again)
    return 0
}
