/// Section 15: temperatures. A u8 count (0...8), then per sensor: chip (u8 length ≤ 15,
/// bytes), label (u8 length ≤ 64, bytes), millidegrees i32, critical and high limits i32
/// (`0x80000000` unknown), flags u8 (bit 0: the CPU package).
enum TemperatureSection {
    static let maximumSize = 1 + Snapshot.maximumSensors
        * (1 + Snapshot.maximumInterfaceNameLength + 1 + Snapshot.maximumPathLength + 3 * 4 + 1)

    static func encode(_ s: Snapshot, into b: inout [UInt8]) {
        b.appendSection(.temperature) { b in
            let count = min(s.temperatures.count, Snapshot.maximumSensors)
            b.append(UInt8(count))
            for i in 0..<count {
                let t = s.temperatures[i]
                b.appendShortBytes(t.chip, maximum: Snapshot.maximumInterfaceNameLength)
                b.appendShortBytes(t.label, maximum: Snapshot.maximumPathLength)
                b.appendLE(UInt32(bitPattern: t.milliCelsius))
                b.appendLE(UInt32(bitPattern: t.criticalMilliCelsius))
                b.appendLE(UInt32(bitPattern: t.highMilliCelsius))
                b.append(t.isCPUPackage ? 1 : 0)
            }
        }
    }

    static func decode(_ r: inout ByteReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        let count = Int(try r.u8())
        guard count <= Snapshot.maximumSensors else { throw .malformed(.countOverLimit) }
        if s.temperatures.count > count { s.temperatures.removeLast(s.temperatures.count - count) }
        for i in 0..<count {
            if i == s.temperatures.count { s.temperatures.append(TemperatureFigures()) }
            try r.shortBytes(into: &s.temperatures[i].chip, maximum: Snapshot.maximumInterfaceNameLength)
            try r.shortBytes(into: &s.temperatures[i].label, maximum: Snapshot.maximumPathLength)
            s.temperatures[i].milliCelsius = Int32(bitPattern: try r.u32())
            s.temperatures[i].criticalMilliCelsius = Int32(bitPattern: try r.u32())
            s.temperatures[i].highMilliCelsius = Int32(bitPattern: try r.u32())
            s.temperatures[i].isCPUPackage = try r.u8() & 1 != 0
        }
    }

    static func clear(_ s: inout Snapshot) {
        s.temperatures.removeAll(keepingCapacity: true)
    }
}
