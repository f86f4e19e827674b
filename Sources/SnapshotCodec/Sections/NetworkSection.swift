/// Section 12: the network interfaces. A u8 count (0...8), then per interface: name
/// (u8 length ≤ 15, bytes), flags u8, rx and tx bytes per second u64, rx and tx bytes u64,
/// IPv4 text (u8 length ≤ 39, bytes), IPv6 text (same), SSID (u8 length ≤ 32, bytes), signal
/// dBm i16, quality u8 (255 unknown), bitrate kbit/s u32. Then the rate history: a u8
/// count *H* (0...60), rx bytes per second u32[*H*], tx bytes per second u32[*H*], oldest first.
enum NetworkSection {
    static let entryMaximumSize = (1 + Snapshot.maximumInterfaceNameLength) + 1 + 4 * 8
        + 2 * (1 + Snapshot.maximumAddressLength) + (1 + Snapshot.maximumSSIDLength) + 2 + 1 + 4
    static let maximumSize = 1 + Snapshot.maximumInterfaces * entryMaximumSize + 1 + 2 * 4 * Snapshot.historyLength

    static func encode(_ s: Snapshot, into b: inout [UInt8]) {
        b.appendSection(.network) { b in
            let count = min(s.interfaces.count, Snapshot.maximumInterfaces)
            b.append(UInt8(count))
            for i in 0..<count {
                let n = s.interfaces[i]
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
            for i in (s.rxHistory.count - points)..<s.rxHistory.count { b.appendLE(s.rxHistory[i]) }
            for i in (s.txHistory.count - points)..<s.txHistory.count { b.appendLE(s.txHistory[i]) }
        }
    }

    static func decode(_ r: inout ByteReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        let count = Int(try r.u8())
        guard count <= Snapshot.maximumInterfaces else { throw .malformed(.countOverLimit) }
        if s.interfaces.count > count { s.interfaces.removeLast(s.interfaces.count - count) }
        for i in 0..<count {
            if i == s.interfaces.count { s.interfaces.append(InterfaceFigures()) }
            try r.shortBytes(into: &s.interfaces[i].name, maximum: Snapshot.maximumInterfaceNameLength)
            s.interfaces[i].flags = InterfaceFigures.Flags(rawValue: try r.u8())
            s.interfaces[i].rxBytesPerSecond = try r.u64()
            s.interfaces[i].txBytesPerSecond = try r.u64()
            s.interfaces[i].rxBytes = try r.u64()
            s.interfaces[i].txBytes = try r.u64()
            try r.shortBytes(into: &s.interfaces[i].ipv4, maximum: Snapshot.maximumAddressLength)
            try r.shortBytes(into: &s.interfaces[i].ipv6, maximum: Snapshot.maximumAddressLength)
            try r.shortBytes(into: &s.interfaces[i].wifi.ssid, maximum: Snapshot.maximumSSIDLength)
            s.interfaces[i].wifi.signalDBm = Int16(bitPattern: try r.u16())
            s.interfaces[i].wifi.qualityPercent = try r.u8()
            s.interfaces[i].wifi.bitrateKbps = try r.u32()
        }
        let points = Int(try r.u8())
        guard points <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.u32Array(count: points, into: &s.rxHistory)
        try r.u32Array(count: points, into: &s.txHistory)
    }

    static func clear(_ s: inout Snapshot) {
        s.interfaces.removeAll(keepingCapacity: true)
        s.rxHistory.removeAll(keepingCapacity: true)
        s.txHistory.removeAll(keepingCapacity: true)
    }
}
