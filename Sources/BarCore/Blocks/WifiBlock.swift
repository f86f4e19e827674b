import SnapshotCodec

/// `wifi HomeNet 72% 866M`: SSID, link quality and bitrate of a wireless interface
/// (`wifi:wlan0`; default the first wireless one, the default route's first); `wifi down`
/// (critical) when not associated; hidden on a machine without Wi-Fi.
enum WifiBlock {
    static let descriptor = BlockDescriptor(
        name: "wifi", label: "wifi", section: .network, argumentKey: "interface", asks: .interface,
        present: { s, c in interface(s, c.argument) != nil },
        hiddenWhenMissingByDefault: true,
        // i3status's wireless `format_down`: no such interface, or not associated.
        states: [BlockState(key: "format_down", level: .critical) { s, c in linked(s, c.argument) == nil }],
        placeholders: [
            PlaceholderSpec("ssid", "the network's name (escaped: an SSID is any 32 bytes)") { s, c, w in
                if let n = linked(s, c.argument) { w.append(bytes: n.wifi.ssid) } else { w.append("down") }
            },
            PlaceholderSpec("quality", "link quality, percent") { s, c, w in
                if let n = linked(s, c.argument), n.wifi.qualityPercent <= 100 {
                    w.appendDecimal(UInt64(n.wifi.qualityPercent))
                } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("signal", "signal, dBm") { s, c, w in
                if let n = linked(s, c.argument), n.wifi.signalDBm != Snapshot.unknownSignal {
                    w.appendDecimal(Int(n.wifi.signalDBm))
                } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("bitrate", "transmit bitrate, Mbit/s") { s, c, w in
                if let n = linked(s, c.argument) { w.appendDecimal(UInt64(n.wifi.bitrateKbps / 1000)) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("name", "the interface") { s, c, w in
                if let n = linked(s, c.argument) { w.append(bytes: n.name) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("down", "bytes received per second") { s, c, w in
                if let n = interface(s, c.argument) { w.appendRate(bytesPerSecond: n.rxBytesPerSecond) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("up", "bytes sent per second") { s, c, w in
                if let n = interface(s, c.argument) { w.appendRate(bytesPerSecond: n.txBytesPerSecond) } else { w.appendNotAvailable() }
            },
            PlaceholderSpec("ip", "its IPv4 address, else its global IPv6 one (i3status's wireless %ip)") { s, c, w in
                guard let n = linked(s, c.argument), !(n.ipv4.isEmpty && n.ipv6.isEmpty) else { w.appendNotAvailable(); return }
                w.append(bytes: n.ipv4.isEmpty ? n.ipv6 : n.ipv4)
            },
        ],
        render: render)

    /// The block's interface when it is associated.
    private static func linked(_ snap: Snapshot, _ argument: [UInt8]) -> InterfaceFigures? {
        guard let n = interface(snap, argument), n.flags.contains(.wifiLink) else { return nil }
        return n
    }

    /// The wireless interface `argument` names, else the default route's if wireless, else the first wireless.
    static func interface(_ snap: Snapshot, _ argument: [UInt8]) -> InterfaceFigures? {
        if !argument.isEmpty {
            for n in snap.interfaces where n.name == argument { return n }
            return nil
        }
        for n in snap.interfaces where n.flags.contains(.wireless) && n.flags.contains(.defaultRoute) { return n }
        for n in snap.interfaces where n.flags.contains(.wireless) { return n }
        return nil
    }

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let argument = c.argument
        guard let n = interface(snap, argument) else {
            // No Wi-Fi here at all (a desktop): `n/a`, like a missing battery, GPU or sensor;
            // the default bar hides it (hide_missing).
            guard !argument.isEmpty else { v.full.append("wifi "); v.full.appendNotAvailable(); v.short.append(v.full); return }
            v.full.append("wifi "); v.full.append(bytes: argument); v.full.append(": no such interface")
            v.short.append(v.full)
            v.level = .warning
            return
        }
        v.full.append("wifi ")
        guard n.flags.contains(.wifiLink) else {
            v.full.append("down")
            v.short.append(v.full)
            v.level = .critical
            return
        }
        v.full.append(bytes: n.wifi.ssid)
        v.short.append(v.full)
        if n.wifi.qualityPercent <= 100 {
            v.full.append(UInt8(ascii: " ")); v.full.appendDecimal(UInt64(n.wifi.qualityPercent)); v.full.append(UInt8(ascii: "%"))
            v.percentage = UInt64(n.wifi.qualityPercent)
            if n.wifi.qualityPercent < 30 { v.level = .warning }
        }
        if n.wifi.bitrateKbps > 0 {
            v.full.append(UInt8(ascii: " ")); v.full.appendDecimal(UInt64(n.wifi.bitrateKbps / 1000)); v.full.append(UInt8(ascii: "M"))
        }
    }
}
