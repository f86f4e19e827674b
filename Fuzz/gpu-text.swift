// Fuzz target `gpu-text`: any bytes as the two texts GPU figures are read from — the NVIDIA
// helper's stdout (another program could sit at its path), read as the sampler reads it
// (NVMLHelperOutput: appended, frames taken), and a /proc/PID/fdinfo file as `sysstats top
// --gpu` reads it (DRMClientReading.parse).
//
// Properties: reading never traps; at most GPUCards.maximumCards cards, each with busy
// shares within 0...10000, the driver `nvidia`, a name without a line break, and a figure
// marked known only where its bit is one of the eight; at most 256 processes, each with a
// positive pid; the input fed in two parts (split at its first byte's value) gives the same
// cards as fed whole, when no line outruns the buffer. An fdinfo client has a driver, at
// most DRMClientReading.maximumEngines engines each of capacity 1 or more, and a busy share
// computed from it is within 0...10000.

import ProcFS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let whole = NVMLHelperOutput()
    var cards: [GPUReading] = []
    whole.append(input)
    let took = whole.takeFrames(into: &cards)
    expect(cards.count <= GPUCards.maximumCards, "too many cards")
    for c in cards {
        expect(c.busy <= 10_000 && c.memoryBusy <= 10_000, "a share over 100 %")
        expect(c.driver.description == "nvidia", "a driver other than nvidia")
        expect(c.known & ~(GPUReading.powerLimitKnown &* 2 &- 1) == 0, "an unknown figure bit")   // the newest figure's bit and below
        expect(!c.name.description.contains("\n"), "a line break in a name")
        expect(c.index >= 0 && c.index < 256, "an index past 255")
    }
    if size > 0 && size < NVMLHelperOutput.capacity {
        let cut = Int(input[0]) % (size + 1)
        let split = NVMLHelperOutput()
        var parts: [GPUReading] = []
        split.append(UnsafeRawBufferPointer(rebasing: input[0..<cut]))
        let first = split.takeFrames(into: &parts)
        split.append(UnsafeRawBufferPointer(rebasing: input[cut...]))
        let second = split.takeFrames(into: &parts)
        expect(first || second == took || !took, "a frame seen whole was lost when split")
        if took { expect(parts == cards, "the cards differ when the input comes in two reads") }
    }
    expect(whole.processes.count <= NVMLHelperOutput.maximumProcesses && whole.processes.allSatisfy { $0.pid > 0 && ($0.smPercent ?? 0) <= 100 },
           "a process list past its bound or with a pid of 0 or less")
    if let client = DRMClientReading.parse(input) {
        expect(!client.driver.isEmpty, "a client without a driver")
        expect(client.engines.count <= DRMClientReading.maximumEngines, "too many engines")
        expect(client.engines.allSatisfy { $0.capacity >= 1 }, "an engine of capacity 0")
        let busy = DRMClients.busyPermyriad(before: [], after: [client], elapsedNs: 1 + UInt64(size))
        expect(busy <= 10_000, "a busy share over 100 %")
    }
    return 0
}
