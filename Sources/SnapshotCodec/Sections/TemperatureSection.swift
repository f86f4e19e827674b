/// Section 15: temperatures. A u8 count (0...8), then per sensor: chip (u8 length ≤ 15,
/// bytes), label (u8 length ≤ 64, bytes), millidegrees i32, critical and high limits i32
/// (`0x80000000` unknown), flags u8 (bit 0: the CPU package).
enum TemperatureSection {
    static let maximumSize = 1 + Snapshot.maximumSensors
        * (1 + Snapshot.maximumInterfaceNameLength + 1 + Snapshot.maximumPathLength + 3 * 4 + 1)

    static let descriptor = SectionDescriptor(.temperature, maximumSize: maximumSize, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.temperature) { b in
            b.appendList(s.temperatures, maximum: Snapshot.maximumSensors) { b, t in
                b.appendShortBytes(t.chip, maximum: Snapshot.maximumInterfaceNameLength)
                b.appendShortBytes(t.label, maximum: Snapshot.maximumPathLength)
                b.appendLE(UInt32(bitPattern: t.milliCelsius))
                b.appendLE(UInt32(bitPattern: t.criticalMilliCelsius))
                b.appendLE(UInt32(bitPattern: t.highMilliCelsius))
                b.append(t.isCPUPackage ? 1 : 0)
            }
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.list(into: &s.temperatures, maximum: Snapshot.maximumSensors, empty: TemperatureFigures()) { (r, t) throws(SnapshotDecodeError) in
            try r.shortBytes(into: &t.chip, maximum: Snapshot.maximumInterfaceNameLength)
            try r.shortBytes(into: &t.label, maximum: Snapshot.maximumPathLength)
            t.milliCelsius = Int32(bitPattern: try r.u32())
            t.criticalMilliCelsius = Int32(bitPattern: try r.u32())
            t.highMilliCelsius = Int32(bitPattern: try r.u32())
            t.isCPUPackage = try r.u8() & 1 != 0
        }
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.temperatures.removeAll(keepingCapacity: true)
    }
}
