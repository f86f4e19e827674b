/// What nl80211 says about one Wi-Fi interface's connection.
public struct WirelessLink: Equatable, Sendable {
    /// The longest SSID (IEEE 802.11: 32 bytes).
    public static let ssidCapacity = 32

    /// The SSID's bytes, raw: any byte values, not necessarily UTF-8 (the renderer escapes).
    /// Positions at and after ``ssidLength`` are 0.
    public private(set) var ssid = SIMD32<UInt8>()
    /// The SSID's length, 0...32; 0 when not connected (or hidden).
    public private(set) var ssidLength = 0
    /// `NL80211_ATTR_IFTYPE` (`NL80211_IFTYPE_*`: 2 station, 3 access point, …); nil when absent.
    public var interfaceType: UInt32?
    /// The station's signal (`NL80211_STA_INFO_SIGNAL`, else `_SIGNAL_AVG`), dBm; nil when unknown.
    public var signalDBm: Int8?
    /// The transmit bitrate in kbit/s (`NL80211_RATE_INFO_BITRATE32`, else `_BITRATE`, both in
    /// 100 kbit/s units); nil when unknown.
    public var bitrateKbps: UInt32?

    public init() {}

    /// Sets the SSID from raw bytes; an SSID longer than 32 bytes is malformed: it is
    /// rejected (the SSID is left empty) and false returned.
    @discardableResult
    public mutating func setSSID(_ raw: UnsafeRawBufferPointer) -> Bool {
        ssid = SIMD32<UInt8>()
        ssidLength = 0
        guard raw.count <= WirelessLink.ssidCapacity else { return false }
        for i in 0..<raw.count { ssid[i] = raw[i] }
        ssidLength = raw.count
        return true
    }

    /// Appends the SSID's raw bytes to `out` (escape them before showing them).
    public func appendSSID(into out: inout [UInt8]) {
        for i in 0..<ssidLength { out.append(ssid[i]) }
    }

    /// The signal as a 0...100 quality; nil without a signal. See ``qualityPercent(signalDBm:)``.
    public var qualityPercent: UInt8? { signalDBm.map(WirelessLink.qualityPercent(signalDBm:)) }

    /// The usual mapping from dBm to a quality percentage (NetworkManager's, i3status's):
    /// −100 dBm or weaker is 0 %, −50 dBm or stronger is 100 %, linear between
    /// (2 % per dB): `2 × (dBm + 100)`.
    public static func qualityPercent(signalDBm: Int8) -> UInt8 {
        let dBm = Int(signalDBm)
        if dBm <= -100 { return 0 }
        if dBm >= -50 { return 100 }
        return UInt8(2 * (dBm + 100))
    }
}

/// Asks nl80211 (over generic netlink) for a Wi-Fi interface's SSID, signal and bitrate.
///
/// The nl80211 family id is resolved once (retried every 64th call while the kernel has no
/// nl80211, e.g. until cfg80211 loads). Each ``link(interfaceIndex:buffer:)`` sends
/// `NL80211_CMD_GET_INTERFACE` and a `NL80211_CMD_GET_STATION` dump for the interface; the
/// whole call never waits longer than `timeoutMilliseconds` in total (the socket is
/// non-blocking, waits are `poll`s of the time left), and reads a bounded number of
/// datagrams. For a managed (client) interface the station dump holds one station, the
/// access point; otherwise the first station with figures is used.
public final class WirelessQuery {
    /// The longest the whole query may wait for the kernel, in milliseconds.
    public let timeoutMilliseconds: Int
    /// The nl80211 generic netlink family id, once resolved.
    public private(set) var familyID: UInt16?

    private var socket: GenericNetlinkSocket?
    private var callsUntilRetry = 0
    private static let retryEvery = 64

    /// Prepares the query; the socket opens on first use. Never fails.
    /// - Parameter timeoutMilliseconds: the total wait allowed per call (default 50; at most 50 is advised).
    public init(timeoutMilliseconds: Int = 50) {
        self.timeoutMilliseconds = max(0, timeoutMilliseconds)
    }

    /// The connection of interface `interfaceIndex`, using `buffer`'s storage for replies.
    /// - Returns: nil when the interface is not a Wi-Fi interface (`ENODEV`), nl80211 is
    ///   missing, or the kernel did not answer in time. A Wi-Fi interface that is not
    ///   connected gives a link with an empty SSID and no signal.
    public func link(interfaceIndex: Int32, buffer: ReadBuffer) -> WirelessLink? {
        guard interfaceIndex > 0 else { return nil }
        let deadline = monotonicMilliseconds() + Int64(timeoutMilliseconds)
        guard let socket = openSocket(), let family = resolve(socket, buffer, deadline) else { return nil }
        var link = WirelessLink()
        var sawInterface = false
        let index = UInt32(bitPattern: interfaceIndex)
        let interfaceState = socket.exchange(buffer: buffer, deadline: deadline, build: { request, sequence in
            request.begin(type: family, flags: Netlink.flagRequest, sequence: sequence)
            WirelessQuery.appendGenericHeader(&request, command: Netlink.nl80211GetInterface)
            request.appendAttribute(Netlink.nl80211InterfaceIndex, index)
        }, handle: { message in
            if WirelessQuery.applyInterfaceMessage(message, family: family, into: &link) { sawInterface = true }
        })
        switch interfaceState {
        case .done?:
            guard sawInterface else { return nil }
        case .failed(let code)?:
            // ENODEV: not Wi-Fi. Anything else may mean the family id went stale (module reloaded).
            if code != 19 { familyID = nil }
            return nil
        case .pending?, nil:
            return nil
        }
        let stationState = socket.exchange(buffer: buffer, deadline: deadline, build: { request, sequence in
            request.begin(type: family, flags: Netlink.flagRequest | Netlink.flagDump, sequence: sequence)
            WirelessQuery.appendGenericHeader(&request, command: Netlink.nl80211GetStation)
            request.appendAttribute(Netlink.nl80211InterfaceIndex, index)
        }, handle: { message in
            WirelessQuery.applyStationMessage(message, family: family, into: &link)
        })
        // A refused station dump still leaves the SSID worth showing; silence does not.
        return stationState == nil ? nil : link
    }

    private func openSocket() -> GenericNetlinkSocket? {
        if let socket { return socket }
        guard callsUntilRetry == 0 else { callsUntilRetry -= 1; return nil }
        if case .success(let s) = GenericNetlinkSocket.open() {
            socket = s
            return s
        }
        callsUntilRetry = WirelessQuery.retryEvery
        return nil
    }

    private func resolve(_ socket: GenericNetlinkSocket, _ buffer: ReadBuffer, _ deadline: Int64) -> UInt16? {
        if let familyID { return familyID }
        guard callsUntilRetry == 0 else { callsUntilRetry -= 1; return nil }
        // Within the call's deadline: the first call waits no longer than the others.
        let left = Int(clamping: deadline - monotonicMilliseconds())
        familyID = socket.resolveFamily("nl80211", buffer: buffer, timeoutMilliseconds: left)
        if familyID == nil { callsUntilRetry = WirelessQuery.retryEvery }
        return familyID
    }

    private static func appendGenericHeader(_ request: inout NetlinkRequest, command: UInt8) {
        request.appendInteger(command)   // genlmsghdr.cmd
        request.appendInteger(UInt8(0))  // genlmsghdr.version
        request.appendInteger(UInt16(0)) // genlmsghdr.reserved
    }

    // MARK: - Parsers (pure)

    /// Parses a datagram answering `NL80211_CMD_GET_INTERFACE` into `link` (SSID, interface type).
    /// - Returns: the reply's state (`.failed(errno: 19)` for an interface that is not Wi-Fi).
    public static func parseInterfaceReply(_ datagram: UnsafeRawBufferPointer, into link: inout WirelessLink) -> NetlinkReplyState {
        walkNetlinkReply(datagram, sequence: nil) { message in
            _ = applyInterfaceMessage(message, family: nil, into: &link)
        }
    }

    /// Parses a datagram of a `NL80211_CMD_GET_STATION` dump into `link` (signal, bitrate),
    /// from the first station that has either.
    /// - Returns: the reply's state (`.pending` until the datagram holding `NLMSG_DONE`).
    public static func parseStationReply(_ datagram: UnsafeRawBufferPointer, into link: inout WirelessLink) -> NetlinkReplyState {
        walkNetlinkReply(datagram, sequence: nil) { message in
            applyStationMessage(message, family: nil, into: &link)
        }
    }

    /// The genlmsghdr command of an nl80211 message (of `family` when given), and its attributes.
    private static func nl80211Attributes(_ message: NetlinkMessage, family: UInt16?, command: UInt8) -> NetlinkAttributes? {
        if let family, message.type != family { return nil }
        guard message.payload.count >= Netlink.genericHeaderSize, message.payload[0] == command else { return nil }
        return message.attributes(after: Netlink.genericHeaderSize)
    }

    /// Reads one `NL80211_CMD_NEW_INTERFACE` message; false if the message is not one.
    static func applyInterfaceMessage(_ message: NetlinkMessage, family: UInt16?, into link: inout WirelessLink) -> Bool {
        guard let attributes = nl80211Attributes(message, family: family, command: Netlink.nl80211NewInterface) else { return false }
        for a in attributes {
            switch a.type {
            case Netlink.nl80211SSID: link.setSSID(a.payload)
            case Netlink.nl80211InterfaceType: link.interfaceType = a.uint32
            default: continue
            }
        }
        return true
    }

    /// Reads one `NL80211_CMD_NEW_STATION` message, unless an earlier station already gave figures.
    static func applyStationMessage(_ message: NetlinkMessage, family: UInt16?, into link: inout WirelessLink) {
        guard link.signalDBm == nil, link.bitrateKbps == nil,
              let attributes = nl80211Attributes(message, family: family, command: Netlink.nl80211NewStation),
              let info = attributes.first(Netlink.nl80211StationInfo) else { return }
        var signal: Int8?, average: Int8?, bitrate: UInt32?
        for a in info.nested {
            switch a.type {
            case Netlink.stationSignal: signal = a.int8
            case Netlink.stationSignalAverage: average = a.int8
            case Netlink.stationTransmitBitrate: bitrate = transmitBitrate(a.nested)
            default: continue
            }
        }
        link.signalDBm = signal ?? average
        link.bitrateKbps = bitrate
    }

    /// kbit/s from a rate-info nest: `BITRATE32` (u32), else `BITRATE` (u16), × 100; nil when 0 or absent.
    private static func transmitBitrate(_ rate: NetlinkAttributes) -> UInt32? {
        var wide: UInt32?, narrow: UInt16?
        for a in rate {
            switch a.type {
            case Netlink.rateBitrate32: wide = a.uint32
            case Netlink.rateBitrate: narrow = a.uint16
            default: continue
            }
        }
        let units = wide.flatMap { $0 > 0 ? $0 : nil } ?? narrow.map(UInt32.init) ?? 0
        guard units > 0 else { return nil }
        let (kbps, overflow) = units.multipliedReportingOverflow(by: 100)
        return overflow ? .max : kbps
    }
}
