import ProcFS
import SnapshotCodec

/// Network interfaces: rates from /proc/net/dev (kept open) every sample; links, addresses
/// and the default route pushed by an rtnetlink socket (dumped once, then events — no
/// polling); the Wi-Fi link from nl80211 every few seconds (/proc/net/wireless as the
/// fallback). Loopback and virtual interfaces (containers, bridges, VPN tunnels) are left
/// out unless named with `--net`; at most ``Snapshot/maximumInterfaces``.
///
/// With a fixture /proc (`--proc-root`) there is no netlink (it would show this machine's
/// interfaces): the interfaces are those of the fixture's net/dev, up when
/// `<sys-root>/class/net/NAME/operstate` says `up`.
final class NetworkProbe {
    static let wirelessRefreshMs: UInt64 = 5_000

    private let netDev: NetDevReader
    private var previous = NetDevStats()
    private var previousNs: UInt64 = 0
    private var socket: RouteNetlinkSocket?
    private(set) var table = InterfaceTable()
    private var named: [ShortName]
    private let wireless: WirelessQuery?
    private let wirelessProc: WirelessProcReader
    private var lastWirelessMs: UInt64 = 0
    private let operstates: OperstateReader
    private let speeds: OperstateReader

    init(procRoot: String, sysRoot: String, interfaces: [String], useNetlink: Bool) {
        netDev = NetDevReader(procRoot: procRoot)
        var named: [ShortName] = []
        for i in 0..<interfaces.count { named.append(ShortName(interfaces[i])) }
        self.named = named
        wirelessProc = WirelessProcReader(procRoot: procRoot)
        operstates = OperstateReader(sysRoot: sysRoot, capacity: Snapshot.maximumInterfaces)
        speeds = OperstateReader(sysRoot: sysRoot, capacity: Snapshot.maximumInterfaces, file: "speed")
        if useNetlink, case .success(let s) = RouteNetlinkSocket.open() {
            socket = s
            _ = s.requestDump(.all)
            wireless = WirelessQuery(timeoutMilliseconds: 50)
        } else {
            wireless = nil
        }
        previous.interfaces.reserveCapacity(NetDevReader.maximumInterfaces)
    }

    /// Shows these interfaces too, even when they look virtual: the `--net` ones and those
    /// the renderers' blocks name.
    func show(_ interfaces: [String]) {
        named.removeAll()
        for i in 0..<min(interfaces.count, Snapshot.maximumInterfaces) { named.append(ShortName(interfaces[i])) }
    }

    /// Applies netlink messages as if the socket had delivered them (tests feed committed dumps).
    func apply(messages bytes: UnsafeRawBufferPointer) { _ = table.apply(messages: bytes) }

    func sample(into s: inout Snapshot, buffer: ReadBuffer, realtimeMs: UInt64, monotonicNs: UInt64) {
        drainEvents(buffer)
        guard let counters = netDev.update(buffer) else { return }
        let elapsedNs = monotonicNs > previousNs ? monotonicNs - previousNs : 0
        let refreshWireless = lastWirelessMs == 0 || realtimeMs &- lastWirelessMs >= NetworkProbe.wirelessRefreshMs
            || realtimeMs < lastWirelessMs
        if refreshWireless { lastWirelessMs = realtimeMs == 0 ? 1 : realtimeMs }
        var n = 0
        // The default route's interface first, then the others by index.
        let first = table.defaultInterfaceIndex
        for pass in 0..<2 {
            // Index loops throughout: see NetDevStats.interface(named:).
            for k in 0..<counters.interfaces.count where n < Snapshot.maximumInterfaces {
                let c = counters.interfaces[k]
                let entry = tableEntry(c.name)
                if !shown(c.name, entry) { continue }
                let isDefault = entry != nil && entry?.index == first
                if (pass == 0) != isDefault { continue }
                if n == s.interfaces.count { s.interfaces.append(InterfaceFigures()) }
                fill(&s.interfaces[n], c, entry, isDefault: isDefault, elapsedNs: elapsedNs, buffer: buffer,
                     refreshWireless: refreshWireless)
                n += 1
            }
        }
        if s.interfaces.count > n { s.interfaces.removeLast(s.interfaces.count - n) }
        previous = counters
        previousNs = monotonicNs
        s.available.insert(.network)
    }

    private func drainEvents(_ buffer: ReadBuffer) {
        guard let socket else { return }
        var lost = false
        let result = socket.drain(into: buffer) { datagram in
            _ = table.apply(messages: datagram)
        }
        lost = result.eventsLost
        if lost {
            table.removeAll()
            _ = socket.requestDump(.all)
        } else if table.needsAddressDump && !socket.isDumping {
            table.acknowledgeAddressDump()
            _ = socket.requestDump(.addresses)
        }
    }

    private func tableEntry(_ name: FixedName) -> NetworkInterface? {
        guard socket != nil || !table.interfaces.isEmpty else { return nil }
        for i in 0..<table.interfaces.count where table.interfaces[i].name.fixed == name { return table.interfaces[i] }
        return nil
    }

    /// Whether the interface is shown: named with --net, or not loopback and not virtual.
    private func shown(_ name: FixedName, _ entry: NetworkInterface?) -> Bool {
        for i in 0..<named.count where named[i].fixed == name { return true }
        if isLoopbackName(name) { return false }
        guard let entry else {
            // Without netlink: by name only.
            return socket == nil && table.interfaces.isEmpty && !looksVirtual(name)
        }
        // The default route's interface is shown even when virtual (a server's bridge, a VPN).
        if !entry.isLoopback, entry.index == table.defaultInterfaceIndex { return true }
        return !entry.isLoopback && !entry.isVirtual
    }

    private func fill(_ f: inout InterfaceFigures, _ c: NetInterfaceCounters, _ entry: NetworkInterface?, isDefault: Bool,
                      elapsedNs: UInt64, buffer: ReadBuffer, refreshWireless: Bool) {
        c.name.store(in: &f.name)
        var flags: InterfaceFigures.Flags = []
        if let entry {
            if entry.isUp { flags.insert(.up) }
            if entry.carrier == true || entry.operationalState == .up { flags.insert(.carrier) }
            if isDefault { flags.insert(.defaultRoute) }
            f.ipv4.removeAll(keepingCapacity: true)
            f.ipv6.removeAll(keepingCapacity: true)
            entry.ipv4?.appendAddress(into: &f.ipv4)
            entry.ipv6?.appendAddress(into: &f.ipv6)
        } else {
            f.ipv4.removeAll(keepingCapacity: true)
            f.ipv6.removeAll(keepingCapacity: true)
            if operstates.isUp(c.name, buffer: buffer) { flags.insert(.up); flags.insert(.carrier) }
        }
        f.rxBytes = c.rxBytes
        f.txBytes = c.txBytes
        if previousNs != 0, let before = previous.interface(named: c.name) {
            f.rxBytesPerSecond = perSecond(c.rxBytes, before.rxBytes, elapsedNs)
            f.txBytesPerSecond = perSecond(c.txBytes, before.txBytes, elapsedNs)
            flags.insert(.rates)
        } else {
            f.rxBytesPerSecond = 0
            f.txBytesPerSecond = 0
        }
        if refreshWireless { updateWireless(&f, c.name, entry, buffer) }
        // Wireless flags carry over between refreshes.
        flags.formUnion(f.flags.intersection([.wireless, .wifiLink]))
        f.flags = flags
        // A wired link's speed (i3status's ethernet %speed): -1 is a driver that does not know.
        f.linkSpeedMbps = Snapshot.unreadableLinkSpeed
        if flags.contains(.carrier) && !flags.contains(.wireless), let speed = speeds.signedValue(c.name, buffer: buffer) {
            f.linkSpeedMbps = speed < 0 ? 0 : UInt32(clamping: speed)
        }
    }

    /// The Wi-Fi state of one interface: nl80211 when there is netlink, else /proc/net/wireless.
    private func updateWireless(_ f: inout InterfaceFigures, _ name: FixedName, _ entry: NetworkInterface?, _ buffer: ReadBuffer) {
        f.flags.remove([.wireless, .wifiLink])
        f.wifi.ssid.removeAll(keepingCapacity: true)
        f.wifi.signalDBm = Snapshot.unknownSignal
        f.wifi.qualityPercent = 255
        f.wifi.bitrateKbps = 0
        if let wireless, let entry, let link = wireless.link(interfaceIndex: entry.index, buffer: buffer) {
            f.flags.insert(.wireless)
            guard link.ssidLength > 0 else { return }
            f.flags.insert(.wifiLink)
            link.appendSSID(into: &f.wifi.ssid)
            if let dBm = link.signalDBm { f.wifi.signalDBm = Int16(dBm) }
            if let q = link.qualityPercent { f.wifi.qualityPercent = q }
            f.wifi.bitrateKbps = link.bitrateKbps ?? 0
            return
        }
        guard let reading = wirelessProc.update(buffer, interface: name) else { return }
        f.flags.insert(.wireless)
        // /proc/net/wireless has no SSID: a link quality above 0 is an association.
        guard reading.link > 0 else { return }
        f.flags.insert(.wifiLink)
        f.wifi.qualityPercent = reading.qualityPercent
        if let dBm = reading.levelDBm { f.wifi.signalDBm = Int16(dBm) }
    }
}

private func isLoopbackName(_ name: FixedName) -> Bool {
    name.equals("lo")
}

/// Names of virtual interfaces, for when netlink cannot say (the same prefixes InterfaceTable uses).
private func looksVirtual(_ name: FixedName) -> Bool {
    let prefixes = NetworkInterface.virtualNamePrefixes
    for i in 0..<prefixes.count where name.hasPrefix(prefixes[i]) { return true }
    return false
}
