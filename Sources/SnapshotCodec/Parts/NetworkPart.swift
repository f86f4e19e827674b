// The network interfaces as a list part (``EntryPart``): each interface's name, flags, rates,
// counters, addresses and Wi-Fi link, in the order version 1 of section 12 wrote them, the
// link speed a column added in version 2, and the rate history the section's tail.

extension EntryPart {
    /// Section 12: the network interfaces. A u8 count (0...8), then per interface: name (u8
    /// length ≤ 15, bytes), flags u8, rx and tx bytes per second u64, rx and tx bytes u64, IPv4
    /// text (u8 length ≤ 39, bytes), IPv6 text (same), SSID (u8 length ≤ 32, bytes), signal dBm
    /// i16, quality u8 (255 unknown, else at most 100), bitrate kbit/s u32. Then the rate history
    /// (``NetworkTail``). Version 2 appends the link speed column: a u8 count (the interfaces'),
    /// then a u32 Mbit/s each (0 unknown, 0xFFFFFFFF unreadable); a version-1 reader stops before it.
    /// Its `report --json` member is `ReportJSON`'s own (members derived from the flags).
    static let network = EntryPart(.network, json: nil, maximumEntries: Snapshot.maximumInterfaces, texts: [
        EntryText(maximum: Snapshot.maximumInterfaceNameLength, json: "name", prometheus: "interface",
                  value: { $0.pointee.interfaces[$1].name }, store: { $0.interfaces[$1].name.replace(with: $2) }),
        EntryText(maximum: Snapshot.maximumAddressLength, json: "ipv4", prometheus: nil,
                  value: { $0.pointee.interfaces[$1].ipv4 }, store: { $0.interfaces[$1].ipv4.replace(with: $2) }),
        EntryText(maximum: Snapshot.maximumAddressLength, json: "ipv6", prometheus: nil,
                  value: { $0.pointee.interfaces[$1].ipv6 }, store: { $0.interfaces[$1].ipv6.replace(with: $2) }),
        EntryText(maximum: Snapshot.maximumSSIDLength, json: "ssid", prometheus: nil,
                  value: { $0.pointee.interfaces[$1].wifi.ssid }, store: { $0.interfaces[$1].wifi.ssid.replace(with: $2) }),
    ], figures: [
        EntryFigure(.u8, .count, json: nil, prometheus: nil,
                    value: { UInt64($0.pointee.interfaces[$1].flags.rawValue) },
                    store: { $0.interfaces[$1].flags = InterfaceFigures.Flags(rawValue: UInt8(truncatingIfNeeded: $2)) }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: nil,
                    value: { $0.pointee.interfaces[$1].rxBytesPerSecond }, store: { $0.interfaces[$1].rxBytesPerSecond = $2 }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: nil,
                    value: { $0.pointee.interfaces[$1].txBytesPerSecond }, store: { $0.interfaces[$1].txBytesPerSecond = $2 }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: "sysstats_network_receive_bytes_total",
                    "Bytes received by the interface since it appeared.", counter: true,
                    value: { $0.pointee.interfaces[$1].rxBytes }, store: { $0.interfaces[$1].rxBytes = $2 }),
        EntryFigure(.u64, .bytes, json: nil, prometheus: "sysstats_network_transmit_bytes_total",
                    "Bytes sent by the interface since it appeared.", counter: true,
                    value: { $0.pointee.interfaces[$1].txBytes }, store: { $0.interfaces[$1].txBytes = $2 }),
        EntryFigure(.u16, signed: true, .count, json: nil, prometheus: nil,
                    value: { UInt64(bitPattern: Int64($0.pointee.interfaces[$1].wifi.signalDBm)) },
                    store: { $0.interfaces[$1].wifi.signalDBm = Int16(clamping: Int64(bitPattern: $2)) }),
        EntryFigure(.u8, .count, json: nil, prometheus: nil,
                    value: { UInt64($0.pointee.interfaces[$1].wifi.qualityPercent) },
                    store: { $0.interfaces[$1].wifi.qualityPercent = $2 == 255 ? 255 : UInt8(min($2, 100)) }),   // 255: unknown
        EntryFigure(.u32, .count, json: nil, prometheus: nil,
                    value: { UInt64($0.pointee.interfaces[$1].wifi.bitrateKbps) }, store: { $0.interfaces[$1].wifi.bitrateKbps = UInt32(clamping: $2) }),
        EntryFigure(.u32, .count, json: nil, prometheus: nil, since: 2, cleared: UInt64(Snapshot.unreadableLinkSpeed),
                    value: { UInt64($0.pointee.interfaces[$1].linkSpeedMbps) }, store: { $0.interfaces[$1].linkSpeedMbps = UInt32(clamping: $2) }),
    ], order: [.text(0), .figure(0), .figure(1), .figure(2), .figure(3), .figure(4), .text(1), .text(2), .text(3),
               .figure(5), .figure(6), .figure(7)],
    tail: NetworkTail.tail,
    count: { $0.pointee.interfaces.count }, resize: { $0.interfaces.resize(to: $1, empty: InterfaceFigures()) })
}

/// The network section's rate history after the interfaces: a u8 count *H* (0...60), rx bytes
/// per second u32[*H*], tx bytes per second u32[*H*], oldest first.
enum NetworkTail {
    static let tail = FixedTail(maximumSize: 1 + 2 * 4 * Snapshot.historyLength, encode: encode, decode: decode, clear: clear)

    @Sendable static func encode(_ s: inout Snapshot, _ b: inout EncodeCursor) {
        // The newest points of the two series, right-aligned on each other.
        let points = min(s.rxHistory.count, s.txHistory.count, Snapshot.historyLength)
        b.append(UInt8(points))
        b.appendLE(s.rxHistory, (s.rxHistory.count - points)..<s.rxHistory.count)
        b.appendLE(s.txHistory, (s.txHistory.count - points)..<s.txHistory.count)
    }

    @Sendable static func decode(_ r: inout SnapshotReader, _ s: inout Snapshot) throws(SnapshotDecodeError) {
        let points = Int(try r.u8())
        guard points <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.u32Array(count: points, into: &s.rxHistory)
        try r.u32Array(count: points, into: &s.txHistory)
    }

    @Sendable static func clear(_ s: inout Snapshot) {
        s.rxHistory.removeAll(keepingCapacity: true)
        s.txHistory.removeAll(keepingCapacity: true)
    }
}
