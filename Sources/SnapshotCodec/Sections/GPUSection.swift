/// Section 17: the GPUs. A u8 count (0...4), then per card: index u8, driver (u8 length
/// ≤ 15, bytes), name (u8 length ≤ 64, bytes), known figures u16 (``GPUFigures/Known``),
/// busy and memory busy (permyriad u16 each), VRAM used and total, GTT used and total (bytes,
/// u64 each), millidegrees i32, milliwatts u32, clock MHz u32, fan u32.
enum GPUSection {
    static let entryMaximumSize = 1 + 1 + Snapshot.maximumInterfaceNameLength + 1 + Snapshot.maximumPathLength
        + 2 + 2 * 2 + 4 * 8 + 4 * 4
    static let maximumSize = 1 + Snapshot.maximumGPUs * entryMaximumSize

    static let descriptor = SectionDescriptor(.gpu, part: .gpu, maximumSize: maximumSize, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.gpu) { b in
            b.appendList(s.gpus, maximum: Snapshot.maximumGPUs) { b, g in
                b.append(g.index)
                b.appendShortBytes(g.driver, maximum: Snapshot.maximumInterfaceNameLength)
                b.appendShortBytes(g.name, maximum: Snapshot.maximumPathLength)
                b.appendLE(g.known.rawValue)
                b.appendLE(min(g.busy, Snapshot.wholeShare))
                b.appendLE(min(g.memoryBusy, Snapshot.wholeShare))
                b.appendLE(g.vramUsedBytes)
                b.appendLE(g.vramTotalBytes)
                b.appendLE(g.gttUsedBytes)
                b.appendLE(g.gttTotalBytes)
                b.appendLE(UInt32(bitPattern: g.milliCelsius))
                b.appendLE(g.milliwatts)
                b.appendLE(g.clockMHz)
                b.appendLE(g.fan)
            }
        }
    }

    static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.list(into: &s.gpus, maximum: Snapshot.maximumGPUs, empty: GPUFigures()) { (r, g) throws(SnapshotDecodeError) in
            g.index = try r.u8()
            try r.shortBytes(into: &g.driver, maximum: Snapshot.maximumInterfaceNameLength)
            try r.shortBytes(into: &g.name, maximum: Snapshot.maximumPathLength)
            g.known = GPUFigures.Known(rawValue: try r.u16())
            g.busy = try r.share()
            g.memoryBusy = try r.share()
            g.vramUsedBytes = try r.u64()
            g.vramTotalBytes = try r.u64()
            g.gttUsedBytes = try r.u64()
            g.gttTotalBytes = try r.u64()
            g.milliCelsius = Int32(bitPattern: try r.u32())
            g.milliwatts = try r.u32()
            g.clockMHz = try r.u32()
            g.fan = try r.u32()
        }
    }

    static func clear(_ s: inout Snapshot) {
        s.gpus.removeAll(keepingCapacity: true)
    }
}
