/// Section 8: the battery aggregate. A count of 0 is a measured "no battery" (a desktop).
enum BatterySection {
    static let size = 1 + 1 + 2 + 4 + 4

    static let descriptor = SectionDescriptor(.battery, maximumSize: size,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.battery) { b in
            b.append(s.battery.count)
            b.append(s.battery.state.rawValue)
            b.appendLE(s.battery.percent)
            b.appendLE(s.battery.powerMilliwatts)
            b.appendLE(s.battery.minutesRemaining)
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.battery.count = try r.u8()
        guard let state = BatteryFigures.State(rawValue: try r.u8()) else { throw .malformed(.unknownBatteryState) }
        s.battery.state = state
        s.battery.percent = try r.share()
        s.battery.powerMilliwatts = try r.u32()
        s.battery.minutesRemaining = try r.u32()
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.battery = BatteryFigures()
    }
}
