import SnapshotCodec

/// `net wlan0 192.168.1.20 ↓1.2M/s ↑34K/s`: an interface's address and rates (`net:eth0`;
/// default the one holding the default route, else the first with a carrier); `net eth0 down`
/// (critical) without a carrier.
enum NetBlock {
    static let descriptor = BlockDescriptor(
        name: "net", label: "net", section: .network, argumentKey: "interface", asks: .interface,
        present: { s, c in interface(s, c.argument) != nil },
        hiddenWhenMissingByDefault: true,
        // i3status's ethernet `format_down`: no such interface, or no carrier.
        states: [BlockState(key: "format_down", level: .critical) { s, c in interface(s, c.argument).map { !isUp($0) } ?? true }],
        placeholders: [
            PlaceholderSpec("name", "the interface") { s, c, w in figure(s, c, &w) { n, w in w.append(bytes: n.name) } },
            PlaceholderSpec("ipv4", "its IPv4 address") { s, c, w in figure(s, c, &w) { n, w in w.append(bytes: n.ipv4) } },
            PlaceholderSpec("ipv6", "its global IPv6 address") { s, c, w in figure(s, c, &w) { n, w in w.append(bytes: n.ipv6) } },
            PlaceholderSpec("ip", "IPv4, else IPv6, else nothing") { s, c, w in
                figure(s, c, &w) { n, w in appendAddress(n, into: &w, leadingSpace: false) }
            },
            PlaceholderSpec("down", "bytes received per second") { s, c, w in
                figure(s, c, &w) { n, w in w.appendRate(bytesPerSecond: n.rxBytesPerSecond) }
            },
            PlaceholderSpec("up", "bytes sent per second") { s, c, w in
                figure(s, c, &w) { n, w in w.appendRate(bytesPerSecond: n.txBytesPerSecond) }
            },
            PlaceholderSpec("state", "up or down") { s, c, w in
                if let n = interface(s, c.argument), isUp(n) { w.append("up") } else { w.append("down") }
            },
            PlaceholderSpec("speed", "the wired link's speed, as i3status writes it (1000 Mbit/s, 2.5 Gbit/s; ? without one)") { s, c, w in
                figure(s, c, &w) { n, w in appendSpeed(n.linkSpeedMbps, into: &w) }
            },
        ],
        render: render)

    /// i3status's ethernet `%speed`: Mbit/s up to 1000, Gbit/s above (2.5 with its decimal),
    /// `0 Mbit/s` where the driver does not know, `?` where there is no link speed to read.
    static func appendSpeed(_ mbps: UInt32, into w: inout ByteWriter) {
        if mbps == Snapshot.unreadableLinkSpeed { w.append(UInt8(ascii: "?")); return }
        if mbps == 2500 { w.append("2.5 Gbit/s"); return }
        if mbps > 1000 { w.appendDecimal(UInt64(mbps / 1000)); w.append(" Gbit/s"); return }
        w.appendDecimal(UInt64(mbps)); w.append(" Mbit/s")
    }

    /// Appends a figure of the block's interface, `n/a` without one.
    private static func figure(_ snap: Snapshot, _ c: BlockContext, _ w: inout ByteWriter,
                               _ append: (InterfaceFigures, inout ByteWriter) -> Void) {
        guard let n = interface(snap, c.argument) else { w.appendNotAvailable(); return }
        append(n, &w)
    }

    /// The interface `argument` names, else the default route's, else the first with a carrier,
    /// else the first.
    static func interface(_ snap: Snapshot, _ argument: [UInt8]) -> InterfaceFigures? {
        if !argument.isEmpty {
            for n in snap.interfaces where n.name == argument { return n }
            return nil
        }
        for n in snap.interfaces where n.flags.contains(.defaultRoute) { return n }
        for n in snap.interfaces where n.flags.contains(.carrier) { return n }
        return snap.interfaces.first
    }

    static func isUp(_ n: InterfaceFigures) -> Bool { n.flags.contains(.up) && n.flags.contains(.carrier) }

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        let argument = c.argument
        v.full.append("net ")
        guard let n = interface(snap, argument) else {
            if argument.isEmpty {
                v.full.append("down")
                v.level = .critical
            } else {
                // The sampler lists every interface it was asked for: this one is not here.
                v.full.append(bytes: argument); v.full.append(": no such interface")
                v.level = .warning
            }
            v.short.append(v.full)
            return
        }
        v.full.append(bytes: n.name)
        guard isUp(n) else {
            v.full.append(" down")
            v.short.append(v.full)
            v.level = .critical
            return
        }
        appendAddress(n, into: &v.full, leadingSpace: true)
        v.full.append(" ↓"); v.full.appendRate(bytesPerSecond: n.rxBytesPerSecond)
        v.full.append(" ↑"); v.full.appendRate(bytesPerSecond: n.txBytesPerSecond)
        v.short.append("↓"); v.short.appendRate(bytesPerSecond: n.rxBytesPerSecond)
        v.short.append(" ↑"); v.short.appendRate(bytesPerSecond: n.txBytesPerSecond)
    }

    static func appendAddress(_ n: InterfaceFigures, into w: inout ByteWriter, leadingSpace: Bool) {
        let address = n.ipv4.isEmpty ? n.ipv6 : n.ipv4
        guard !address.isEmpty else { return }
        if leadingSpace { w.append(UInt8(ascii: " ")) }
        w.append(bytes: address)
    }
}
