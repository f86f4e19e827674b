#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// `wifi HomeNet 72% 866M`: SSID, link quality and bitrate of a wireless interface
/// (`wifi:wlan0`; default the first wireless one, the default route's first); `wifi down`
/// (critical) when not associated; hidden on a machine without Wi-Fi.
enum WifiBlock {
    static let placeholders: [PlaceholderSpec] = [
        PlaceholderSpec("ssid", "the network's name (escaped: an SSID is any 32 bytes)"),
        PlaceholderSpec("quality", "link quality, percent"),
        PlaceholderSpec("signal", "signal, dBm"),
        PlaceholderSpec("bitrate", "transmit bitrate, Mbit/s"),
        PlaceholderSpec("name", "the interface"),
    ]

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

    static func render(_ snap: Snapshot, argument: [UInt8], into v: inout BlockValue) {
        guard let n = interface(snap, argument) else {
            // No Wi-Fi here at all (a desktop): nothing to show, like the battery.
            guard !argument.isEmpty else { v.visible = false; return }
            v.full.append("wifi "); v.full.append(bytes: argument); v.full.append(" down")
            v.short.append(v.full)
            v.level = .critical
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

    static func append(_ index: Int, _ snap: Snapshot, argument: [UInt8], into w: inout ByteWriter) {
        guard let n = interface(snap, argument), n.flags.contains(.wifiLink) else {
            if index == 0 { w.append("down") } else { w.appendNotAvailable() }; return
        }
        switch index {
        case 0: w.append(bytes: n.wifi.ssid)
        case 1:
            if n.wifi.qualityPercent <= 100 { w.appendDecimal(UInt64(n.wifi.qualityPercent)) } else { w.appendNotAvailable() }
        case 2:
            if n.wifi.signalDBm != Snapshot.unknownSignal { w.appendDecimal(Int(n.wifi.signalDBm)) } else { w.appendNotAvailable() }
        case 3: w.appendDecimal(UInt64(n.wifi.bitrateKbps / 1000))
        default: w.append(bytes: n.name)
        }
    }
}
