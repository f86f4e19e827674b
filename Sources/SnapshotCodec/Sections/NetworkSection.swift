/// Section 12: the network interfaces. A u8 count (0...8), then per interface: name
/// (u8 length ≤ 15, bytes), flags u8, rx and tx bytes per second u64, rx and tx bytes u64,
/// IPv4 text (u8 length ≤ 39, bytes), IPv6 text (same), SSID (u8 length ≤ 32, bytes), signal
/// dBm i16, quality u8 (255 unknown), bitrate kbit/s u32. Then the rate history: a u8
/// count *H* (0...60), rx bytes per second u32[*H*], tx bytes per second u32[*H*], oldest first.
/// Version 2 appends each interface's link speed: a u8 count (the interfaces'), then a u32
/// Mbit/s each (0 unknown, 0xFFFFFFFF unreadable); a version-1 reader stops before it.
enum NetworkSection {
    static let entryMaximumSize = (1 + Snapshot.maximumInterfaceNameLength) + 1 + 4 * 8
        + 2 * (1 + Snapshot.maximumAddressLength) + (1 + Snapshot.maximumSSIDLength) + 2 + 1 + 4
    static let maximumSize = 1 + Snapshot.maximumInterfaces * entryMaximumSize + 1 + 2 * 4 * Snapshot.historyLength
        + 1 + 4 * Snapshot.maximumInterfaces

    static let descriptor = SectionDescriptor(.network, maximumSize: maximumSize, cached: true,
                                              encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.network, version: 2) { b in
            b.appendList(s.interfaces, maximum: Snapshot.maximumInterfaces) { b, n in
                b.appendShortBytes(n.name, maximum: Snapshot.maximumInterfaceNameLength)
                b.append(n.flags.rawValue)
                b.appendLE(n.rxBytesPerSecond)
                b.appendLE(n.txBytesPerSecond)
                b.appendLE(n.rxBytes)
                b.appendLE(n.txBytes)
                b.appendShortBytes(n.ipv4, maximum: Snapshot.maximumAddressLength)
                b.appendShortBytes(n.ipv6, maximum: Snapshot.maximumAddressLength)
                b.appendShortBytes(n.wifi.ssid, maximum: Snapshot.maximumSSIDLength)
                b.appendLE(UInt16(bitPattern: n.wifi.signalDBm))
                b.append(n.wifi.qualityPercent)
                b.appendLE(n.wifi.bitrateKbps)
            }
            // The newest points of the two series, right-aligned on each other.
            let points = min(s.rxHistory.count, s.txHistory.count, Snapshot.historyLength)
            b.append(UInt8(points))
            b.appendLE(s.rxHistory, (s.rxHistory.count - points)..<s.rxHistory.count)
            b.appendLE(s.txHistory, (s.txHistory.count - points)..<s.txHistory.count)
            let n = min(s.interfaces.count, Snapshot.maximumInterfaces)
            b.append(UInt8(n))
            for i in 0..<n { b.appendLE(s.interfaces[i].linkSpeedMbps) }
        }
    }

    @Sendable static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        try r.list(into: &s.interfaces, maximum: Snapshot.maximumInterfaces, empty: InterfaceFigures()) { (r, n) throws(SnapshotDecodeError) in
            try r.shortBytes(into: &n.name, maximum: Snapshot.maximumInterfaceNameLength)
            n.flags = InterfaceFigures.Flags(rawValue: try r.u8())
            n.rxBytesPerSecond = try r.u64()
            n.txBytesPerSecond = try r.u64()
            n.rxBytes = try r.u64()
            n.txBytes = try r.u64()
            try r.shortBytes(into: &n.ipv4, maximum: Snapshot.maximumAddressLength)
            try r.shortBytes(into: &n.ipv6, maximum: Snapshot.maximumAddressLength)
            try r.shortBytes(into: &n.wifi.ssid, maximum: Snapshot.maximumSSIDLength)
            n.wifi.signalDBm = Int16(bitPattern: try r.u16())
            let quality = try r.u8()
            n.wifi.qualityPercent = quality == 255 ? 255 : min(quality, 100)   // 255: unknown
            n.wifi.bitrateKbps = try r.u32()
        }
        let points = Int(try r.u8())
        guard points <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.u32Array(count: points, into: &s.rxHistory)
        try r.u32Array(count: points, into: &s.txHistory)
        for i in 0..<s.interfaces.count { s.interfaces[i].linkSpeedMbps = Snapshot.unreadableLinkSpeed }
        guard !r.isAtEnd else { return }   // version 1 ends here
        let speeds = Int(try r.u8())
        guard speeds <= Snapshot.maximumInterfaces else { throw .malformed(.countOverLimit) }
        for i in 0..<speeds {
            let speed = try r.u32()
            if i < s.interfaces.count { s.interfaces[i].linkSpeedMbps = speed }
        }
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.interfaces.removeAll(keepingCapacity: true)
        s.rxHistory.removeAll(keepingCapacity: true)
        s.txHistory.removeAll(keepingCapacity: true)
    }
}
