/// The network interfaces, their first addresses and the default route, kept up to date
/// from rtnetlink messages (dump replies and events alike). Pure: no I/O.
///
/// Storage is reserved at `init` and never grows: at most `capacity` interfaces (sorted
/// by ifindex) and ``routeCapacity`` default routes. When the table is full, a new
/// interface is ignored (counted in ``ignoredInterfaces``) — unless it is a real one and
/// a virtual interface that does not hold the default route can make room, so a host
/// with many containers still sees its network card.
///
/// After ``RouteNetlinkSocket/DrainResult/eventsLost``, call ``removeAll()`` and dump
/// again: lost events may have deleted something.
public struct InterfaceTable {
    /// The default number of interfaces kept.
    public static let defaultCapacity = 16
    /// The number of default routes kept (per family, several metrics and interfaces).
    public static let routeCapacity = 8

    /// How many interfaces the table keeps.
    public let capacity: Int
    /// The interfaces, sorted by ifindex.
    public private(set) var interfaces: [NetworkInterface]
    /// How many new interfaces were dropped (or evicted) for want of room; saturates.
    public private(set) var ignoredInterfaces = 0
    /// Set when a displayed address was deleted: the interface may have another one,
    /// which only a new address dump (`RTM_GETADDR`) reveals. Clear it with ``acknowledgeAddressDump()``.
    public private(set) var needsAddressDump = false

    private struct DefaultRoute: Equatable {
        var family: UInt8
        var interfaceIndex: Int32
        var priority: UInt32
    }
    private var routes: [DefaultRoute]

    /// An empty table for `capacity` interfaces (at least 1).
    public init(capacity: Int = InterfaceTable.defaultCapacity) {
        self.capacity = max(1, capacity)
        interfaces = []
        interfaces.reserveCapacity(self.capacity)
        routes = []
        routes.reserveCapacity(InterfaceTable.routeCapacity)
    }

    /// Forgets everything (keeping the storage): before a full re-dump.
    public mutating func removeAll() {
        interfaces.removeAll(keepingCapacity: true)
        routes.removeAll(keepingCapacity: true)
        needsAddressDump = false
    }

    /// Clears ``needsAddressDump`` (after requesting the dump).
    public mutating func acknowledgeAddressDump() { needsAddressDump = false }

    /// The interface with ifindex `index`, if the table holds it.
    public func interface(index: Int32) -> NetworkInterface? {
        position(of: index).map { interfaces[$0] }
    }

    /// The interface named `name`, if the table holds it.
    public func interface(named name: ShortName) -> NetworkInterface? {
        // Index loops here and below: a for-in over an array allocates per element in debug builds.
        for i in 0..<interfaces.count where interfaces[i].name == name { return interfaces[i] }
        return nil
    }

    /// The ifindex of the default route's interface: the main table's default route
    /// (destination length 0, unicast) with the lowest metric (`RTA_PRIORITY`); IPv4 first,
    /// IPv6 when there is no IPv4 default route. A route through an interface known to
    /// have no carrier (`IFF_RUNNING` clear) loses to one through a running interface.
    /// Nil without a default route. The index may name an interface the full table dropped.
    public var defaultInterfaceIndex: Int32? {
        bestRoute(family: Netlink.familyIPv4) ?? bestRoute(family: Netlink.familyIPv6)
    }

    /// The default route's interface, when the table holds it.
    public var defaultInterface: NetworkInterface? {
        defaultInterfaceIndex.flatMap { interface(index: $0) }
    }

    /// Applies every message of a datagram (`RTM_NEWLINK`/`DELLINK`, `RTM_NEWADDR`/`DELADDR`,
    /// `RTM_NEWROUTE`/`DELROUTE`; anything else is ignored). Malformed messages are skipped.
    /// - Returns: whether any message changed the table's view.
    @discardableResult
    public mutating func apply(messages datagram: UnsafeRawBufferPointer) -> Bool {
        var changed = false
        for message in NetlinkMessages(datagram) {
            switch message.type {
            case Netlink.newLink: changed = applyLink(message, delete: false) || changed
            case Netlink.deleteLink: changed = applyLink(message, delete: true) || changed
            case Netlink.newAddress: changed = applyAddress(message, delete: false) || changed
            case Netlink.deleteAddress: changed = applyAddress(message, delete: true) || changed
            case Netlink.newRoute: changed = applyRoute(message, delete: false) || changed
            case Netlink.deleteRoute: changed = applyRoute(message, delete: true) || changed
            default: continue
            }
        }
        return changed
    }

    // MARK: - Links

    private mutating func applyLink(_ message: NetlinkMessage, delete: Bool) -> Bool {
        let p = message.payload
        // ifinfomsg; AF_BRIDGE messages describe a bridge port, and a DELLINK of one means
        // "left the bridge", not "gone": only AF_UNSPEC messages describe the link itself.
        guard p.count >= Netlink.ifinfomsgSize, p[0] == Netlink.familyUnspecified else { return false }
        let index = p.loadUnaligned(fromByteOffset: 4, as: Int32.self)
        guard index > 0 else { return false }
        if delete {
            removeRoutes(through: index)
            guard let i = position(of: index) else { return false }
            interfaces.remove(at: i)
            return true
        }
        var entry = position(of: index).map { interfaces[$0] } ?? NetworkInterface(index: index)
        entry.hardwareType = p.loadUnaligned(fromByteOffset: 2, as: UInt16.self)
        entry.flags = p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        for a in message.attributes(after: Netlink.ifinfomsgSize) {
            switch a.type {
            case Netlink.linkName:
                entry.name = ShortName(a.string)
            case Netlink.linkOperationalState:
                if let v = a.uint8 { entry.operationalState = NetworkInterface.OperationalState(rawValue: v) ?? .unknown }
            case Netlink.linkCarrier:
                if let v = a.uint8 { entry.carrier = v != 0 }
            case Netlink.linkInfo:
                entry.kind = ShortName()
                for info in a.nested where info.type == Netlink.linkInfoKind {
                    entry.kind = ShortName(info.string)
                    break
                }
            default:
                continue
            }
        }
        // The kernel flushes an interface's IPv4 routes when it goes down without telling.
        if !entry.isUp { removeRoutes(through: index) }
        return store(entry)
    }

    /// Updates or inserts (sorted by index) `entry`; false when there is no room for it.
    private mutating func store(_ entry: NetworkInterface) -> Bool {
        if let i = position(of: entry.index) {
            interfaces[i] = entry
            return true
        }
        if interfaces.count >= capacity {
            guard !entry.isVirtual, let victim = evictableVirtualInterface() else {
                ignoredInterfaces = ignoredInterfaces == .max ? .max : ignoredInterfaces + 1
                return false
            }
            interfaces.remove(at: victim)
            ignoredInterfaces = ignoredInterfaces == .max ? .max : ignoredInterfaces + 1
        }
        var i = 0
        while i < interfaces.count, interfaces[i].index < entry.index { i += 1 }
        // Append and shift by hand: Array.insert(_:at:) allocates in debug builds.
        interfaces.append(entry)
        var j = interfaces.count - 1
        while j > i {
            interfaces[j] = interfaces[j - 1]
            j -= 1
        }
        interfaces[i] = entry
        return true
    }

    private func evictableVirtualInterface() -> Int? {
        let keep = defaultInterfaceIndex
        // The last one: the highest ifindex is the newest (containers come and go).
        var i = interfaces.count - 1
        while i >= 0 {
            if interfaces[i].isVirtual && interfaces[i].index != keep { return i }
            i -= 1
        }
        return nil
    }

    private func position(of index: Int32) -> Int? {
        for i in 0..<interfaces.count where interfaces[i].index == index { return i }
        return nil
    }

    // MARK: - Addresses

    private mutating func applyAddress(_ message: NetlinkMessage, delete: Bool) -> Bool {
        let p = message.payload
        // ifaddrmsg: family, prefixlen, flags, scope (u8 each), index (u32).
        guard p.count >= Netlink.ifaddrmsgSize else { return false }
        let family: InterfaceAddress.Family
        switch p[0] {
        case Netlink.familyIPv4: family = .ipv4
        case Netlink.familyIPv6: family = .ipv6
        default: return false
        }
        let prefix = p[1], scope = p[3]
        var flags = UInt32(p[2])
        let index = Int32(bitPattern: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        guard let i = position(of: index) else { return false }
        var local: UnsafeRawBufferPointer?, peer: UnsafeRawBufferPointer?
        for a in message.attributes(after: Netlink.ifaddrmsgSize) {
            switch a.type {
            case Netlink.addressLocal: local = a.payload
            case Netlink.addressAddress: peer = a.payload
            case Netlink.addressFlags: flags = a.uint32 ?? flags
            default: continue
            }
        }
        // IFA_LOCAL is the interface's own address; IFA_ADDRESS is the peer on point-to-point links.
        guard let raw = local ?? peer, let address = InterfaceAddress(family: family, bytes: raw, prefixLength: prefix)
        else { return false }
        let current = family == .ipv4 ? interfaces[i].ipv4 : interfaces[i].ipv6
        let same = current?.bytes == address.bytes
        let unusable = family == .ipv6 &&
            (scope != Netlink.scopeUniverse || flags & (Netlink.addressFlagTentative | Netlink.addressFlagDADFailed) != 0)
        let updated: InterfaceAddress?
        if delete || unusable {
            guard same else { return false }
            updated = nil
            needsAddressDump = true
        } else {
            guard current == nil || same else { return false }  // keep the first
            updated = address
        }
        if family == .ipv4 { interfaces[i].ipv4 = updated } else { interfaces[i].ipv6 = updated }
        return true
    }

    // MARK: - Routes

    private mutating func applyRoute(_ message: NetlinkMessage, delete: Bool) -> Bool {
        let p = message.payload
        // rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type (u8 each), flags (u32).
        guard p.count >= Netlink.rtmsgSize else { return false }
        let family = p[0]
        guard family == Netlink.familyIPv4 || family == Netlink.familyIPv6, p[1] == 0 else { return false }
        var table = UInt32(p[4])
        let type = p[7]
        let flags = p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        var outputInterface: Int32 = 0
        var priority: UInt32 = 0
        for a in message.attributes(after: Netlink.rtmsgSize) {
            switch a.type {
            case Netlink.routeTable: table = a.uint32 ?? table
            case Netlink.routeOutputInterface: outputInterface = a.int32 ?? 0
            case Netlink.routePriority: priority = a.uint32 ?? 0
            case Netlink.routeMultipath:
                if outputInterface <= 0 { outputInterface = InterfaceTable.firstNexthopInterface(a.payload) }
            default: continue
            }
        }
        guard table == Netlink.tableMain, outputInterface > 0 else { return false }
        let route = DefaultRoute(family: family, interfaceIndex: outputInterface, priority: priority)
        if delete {
            guard let i = routeIndex(route) else { return false }
            routes.remove(at: i)
            return true
        }
        guard type == Netlink.routeTypeUnicast, flags & Netlink.routeFlagCloned == 0,
              routeIndex(route) == nil, routes.count < InterfaceTable.routeCapacity else { return false }
        routes.append(route)
        return true
    }

    /// The ifindex of the first `struct rtnexthop` (len u16, flags u8, hops u8, ifindex s32) with one; 0 if none.
    private static func firstNexthopInterface(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while bytes.count - offset >= Netlink.rtnexthopSize {
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            guard length >= Netlink.rtnexthopSize, length <= bytes.count - offset else { return 0 }
            let index = bytes.loadUnaligned(fromByteOffset: offset + 4, as: Int32.self)
            if index > 0 { return index }
            offset += netlinkAligned(length)
        }
        return 0
    }

    private mutating func removeRoutes(through index: Int32) {
        var i = routes.count - 1
        while i >= 0 {
            if routes[i].interfaceIndex == index { routes.remove(at: i) }
            i -= 1
        }
    }

    private func routeIndex(_ route: DefaultRoute) -> Int? {
        for i in 0..<routes.count where routes[i] == route { return i }
        return nil
    }

    private func bestRoute(family: UInt8) -> Int32? {
        var best: DefaultRoute?
        var bestRunning = false
        for i in 0..<routes.count where routes[i].family == family {
            let route = routes[i]
            // Unknown interfaces count as running: the table may be full.
            let running = interface(index: route.interfaceIndex)?.isRunning ?? true
            if let b = best {
                if bestRunning && !running { continue }
                if running == bestRunning && route.priority >= b.priority { continue }
            }
            best = route
            bestRunning = running
        }
        return best?.interfaceIndex
    }
}
