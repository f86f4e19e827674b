// Fuzz target `cgroup-text`: any bytes as a unit's folder name in the cgroup v2 tree (any
// user with a delegated subtree, any container runtime names one: the units part's label and
// kind come from it, UnitNaming) and as the unit's files the sampler and `top --units` read
// (cpu.stat and memory.stat's `KEY VALUE` lines, io.stat's `rbytes=`/`wbytes=` sums, a
// pressure file's `some avg10=`).
//
// Properties: nothing traps; the name is the unescaped name's bytes or fewer, but for a
// container's runtime word (at most 14 bytes more) and `session`/`systemd`; an app id lies
// within the unescaped name, and the name of an app is that id's last part; the same bytes
// named twice give the same kind and name (the scratch arrays reused); an io.stat sum is
// at least each of its lines' figures (saturating, never wrapped).

import ProcFS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    var name: [UInt8] = [], bare: [UInt8] = []
    let (kind, id) = UnitNaming.describe(input, name: &name, bare: &bare)
    expect(bare.count <= size, "unescaping made the name longer")
    expect(name.count <= bare.count + 14 || kind == .session || kind == .system, "a name longer than its unit's")
    if let id {
        expect(kind == .app && id.lowerBound >= 0 && id.upperBound <= bare.count && !id.isEmpty, "an app id outside the name")
        var short: [UInt8] = []
        UnitNaming.appendShortName(bare[id], to: &short)
        expect(short == name, "an app's name is not its id's last part")
    }
    var again: [UInt8] = [], bareAgain: [UInt8] = []
    let second = UnitNaming.describe(input, name: &again, bare: &bareAgain)
    expect(second.kind == kind && again == name, "the same name named twice differs")
    _ = CgroupUnits.keyedValue(input, "usage_usec")
    _ = CgroupUnits.keyedValue(input, "anon")
    _ = CgroupUnits.someAverage10(input)
    let (read, written) = CgroupUnits.ioTotals(input)
    if let read, let first = firstFigure(input, "rbytes=") { expect(read >= first, "an io.stat sum below one of its lines") }
    if let written, let first = firstFigure(input, "wbytes=") { expect(written >= first, "an io.stat sum below one of its lines") }
    return 0
}

/// The number after the first `key` that starts a word on the first line, as io.stat's
/// reader takes it; nil where there is none or it does not fit.
private func firstFigure(_ bytes: UnsafeRawBufferPointer, _ key: StaticString) -> UInt64? {
    let line = bytes.prefix { $0 != 0x0A }
    let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
    let k = Array(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    for word in words where word.starts(with: k) {
        var value: UInt64 = 0
        var digits = 0
        for b in word.dropFirst(k.count) {
            guard b >= 0x30 && b <= 0x39 else { break }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(b - 0x30))
            if o1 || o2 { return nil }
            value = s; digits += 1
        }
        return digits > 0 ? value : nil
    }
    return nil
}
