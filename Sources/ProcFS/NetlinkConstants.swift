// Netlink numbers that Swift's Glibc module does not export (it imports <sys/socket.h>,
// not the kernel's uapi headers). Values are the kernel's ABI, fixed forever; each group
// names the header it comes from (checked against Debian 12's linux-libc-dev).

/// Numeric netlink constants, grouped by kernel header.
enum Netlink {
    // <linux/netlink.h>
    static let routeProtocol: Int32 = 0          // NETLINK_ROUTE
    static let genericProtocol: Int32 = 16       // NETLINK_GENERIC
    static let addressFamily: Int32 = 16         // AF_NETLINK (<bits/socket.h>; also in Glibc)
    static let sockaddrSize = 12                 // sizeof(struct sockaddr_nl): family u16, pad u16, pid u32, groups u32
    static let headerSize = 16                   // sizeof(struct nlmsghdr): len u32, type u16, flags u16, seq u32, pid u32
    static let alignment = 4                     // NLMSG_ALIGNTO, NLA_ALIGNTO

    static let noop: UInt16 = 1                  // NLMSG_NOOP
    static let error: UInt16 = 2                 // NLMSG_ERROR
    static let done: UInt16 = 3                  // NLMSG_DONE
    static let overrun: UInt16 = 4               // NLMSG_OVERRUN
    static let minimumType: UInt16 = 0x10        // NLMSG_MIN_TYPE: below it, control messages

    static let flagRequest: UInt16 = 0x1         // NLM_F_REQUEST
    static let flagMulti: UInt16 = 0x2           // NLM_F_MULTI
    static let flagAck: UInt16 = 0x4             // NLM_F_ACK
    static let flagDumpInterrupted: UInt16 = 0x10 // NLM_F_DUMP_INTR: the dump raced a change
    static let flagDump: UInt16 = 0x300          // NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH

    static let attributeHeaderSize = 4           // sizeof(struct nlattr) == sizeof(struct rtattr)
    static let attributeNested: UInt16 = 0x8000  // NLA_F_NESTED
    static let attributeNetByteOrder: UInt16 = 0x4000 // NLA_F_NET_BYTEORDER
    static let attributeTypeMask: UInt16 = 0x3FFF // NLA_TYPE_MASK

    // <linux/rtnetlink.h>
    static let newLink: UInt16 = 16              // RTM_NEWLINK
    static let deleteLink: UInt16 = 17           // RTM_DELLINK
    static let getLink: UInt16 = 18              // RTM_GETLINK
    static let newAddress: UInt16 = 20           // RTM_NEWADDR
    static let deleteAddress: UInt16 = 21        // RTM_DELADDR
    static let getAddress: UInt16 = 22           // RTM_GETADDR
    static let newRoute: UInt16 = 24             // RTM_NEWROUTE
    static let deleteRoute: UInt16 = 25          // RTM_DELROUTE
    static let getRoute: UInt16 = 26             // RTM_GETROUTE

    static let groupLink: UInt32 = 0x1           // RTMGRP_LINK
    static let groupIPv4Address: UInt32 = 0x10   // RTMGRP_IPV4_IFADDR
    static let groupIPv4Route: UInt32 = 0x40     // RTMGRP_IPV4_ROUTE
    static let groupIPv6Address: UInt32 = 0x100  // RTMGRP_IPV6_IFADDR
    static let groupIPv6Route: UInt32 = 0x400    // RTMGRP_IPV6_ROUTE

    static let ifinfomsgSize = 16                // family u8, pad u8, type u16, index s32, flags u32, change u32
    static let ifaddrmsgSize = 8                 // family u8, prefixlen u8, flags u8, scope u8, index u32
    static let rtmsgSize = 12                    // family, dst_len, src_len, tos, table, protocol, scope, type (u8 each), flags u32
    static let rtnexthopSize = 8                 // len u16, flags u8, hops u8, ifindex s32

    static let routeDestination: UInt16 = 1      // RTA_DST
    static let routeOutputInterface: UInt16 = 4  // RTA_OIF
    static let routePriority: UInt16 = 6         // RTA_PRIORITY (the metric)
    static let routeMultipath: UInt16 = 9        // RTA_MULTIPATH: struct rtnexthop entries
    static let routeTable: UInt16 = 15           // RTA_TABLE: u32, authoritative over rtm_table
    static let tableMain: UInt32 = 254           // RT_TABLE_MAIN
    static let routeTypeUnicast: UInt8 = 1       // RTN_UNICAST
    static let routeFlagCloned: UInt32 = 0x200   // RTM_F_CLONED: a cache entry, not a route
    static let scopeUniverse: UInt8 = 0          // RT_SCOPE_UNIVERSE: a global address

    // <linux/if_link.h>
    static let linkAddress: UInt16 = 1           // IFLA_ADDRESS
    static let linkName: UInt16 = 3              // IFLA_IFNAME (NUL-terminated, < IFNAMSIZ 16)
    static let linkOperationalState: UInt16 = 16 // IFLA_OPERSTATE (u8, IF_OPER_*)
    static let linkInfo: UInt16 = 18             // IFLA_LINKINFO (nested)
    static let linkCarrier: UInt16 = 33          // IFLA_CARRIER (u8)
    static let linkInfoKind: UInt16 = 1          // IFLA_INFO_KIND (string, inside IFLA_LINKINFO)

    // <linux/if_addr.h>
    static let addressAddress: UInt16 = 1        // IFA_ADDRESS (the peer on point-to-point links)
    static let addressLocal: UInt16 = 2          // IFA_LOCAL (the interface's own address)
    static let addressFlags: UInt16 = 8          // IFA_FLAGS (u32, supersedes ifa_flags)
    static let addressFlagTentative: UInt32 = 0x40 // IFA_F_TENTATIVE: duplicate detection not done
    static let addressFlagDADFailed: UInt32 = 0x08 // IFA_F_DADFAILED

    // <linux/if.h>
    static let interfaceUp: UInt32 = 0x1         // IFF_UP
    static let interfaceLoopback: UInt32 = 0x8   // IFF_LOOPBACK
    static let interfaceRunning: UInt32 = 0x40   // IFF_RUNNING

    // <linux/socket.h>
    static let familyUnspecified: UInt8 = 0      // AF_UNSPEC
    static let familyIPv4: UInt8 = 2             // AF_INET
    static let familyIPv6: UInt8 = 10            // AF_INET6

    // <linux/genetlink.h>
    static let genericHeaderSize = 4             // sizeof(struct genlmsghdr): cmd u8, version u8, reserved u16
    static let controlFamily: UInt16 = 0x10      // GENL_ID_CTRL
    static let controlGetFamily: UInt8 = 3       // CTRL_CMD_GETFAMILY
    static let controlNewFamily: UInt8 = 1       // CTRL_CMD_NEWFAMILY (the reply)
    static let controlFamilyID: UInt16 = 1       // CTRL_ATTR_FAMILY_ID (u16)
    static let controlFamilyName: UInt16 = 2     // CTRL_ATTR_FAMILY_NAME (string)

    // <linux/nl80211.h>
    static let nl80211GetInterface: UInt8 = 5    // NL80211_CMD_GET_INTERFACE
    static let nl80211NewInterface: UInt8 = 7    // NL80211_CMD_NEW_INTERFACE (the reply)
    static let nl80211GetStation: UInt8 = 17     // NL80211_CMD_GET_STATION
    static let nl80211NewStation: UInt8 = 19     // NL80211_CMD_NEW_STATION (the reply)
    static let nl80211InterfaceIndex: UInt16 = 3 // NL80211_ATTR_IFINDEX (u32)
    static let nl80211InterfaceType: UInt16 = 5  // NL80211_ATTR_IFTYPE (u32, NL80211_IFTYPE_*)
    static let nl80211StationInfo: UInt16 = 21   // NL80211_ATTR_STA_INFO (nested)
    static let nl80211SSID: UInt16 = 52          // NL80211_ATTR_SSID (0...32 raw bytes)
    static let stationSignal: UInt16 = 7         // NL80211_STA_INFO_SIGNAL (u8 holding s8 dBm)
    static let stationTransmitBitrate: UInt16 = 8 // NL80211_STA_INFO_TX_BITRATE (nested rate info)
    static let stationSignalAverage: UInt16 = 13 // NL80211_STA_INFO_SIGNAL_AVG (u8 holding s8 dBm)
    static let rateBitrate: UInt16 = 1           // NL80211_RATE_INFO_BITRATE (u16, 100 kbit/s)
    static let rateBitrate32: UInt16 = 5         // NL80211_RATE_INFO_BITRATE32 (u32, 100 kbit/s)
    static let ssidMaximumLength = 32            // IEEE80211_MAX_SSID_LEN (<linux/ieee80211.h>)
}
