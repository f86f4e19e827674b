#!/usr/bin/env python3
"""Writes the binary netlink replies in Tests/Fixtures/netlink/*.bin.

Each file is what one recv() from a netlink socket would hold: one or more netlink
messages, back to back, little-endian (the kernel writes host order; the tests run on
little-endian machines). The layouts follow the kernel's uapi headers byte for byte:

  struct nlmsghdr  (linux/netlink.h)   16 bytes: u32 len, u16 type, u16 flags, u32 seq, u32 pid
  struct nlattr / struct rtattr         4 bytes: u16 len (header + value, no padding), u16 type,
                                        then the value, padded to a multiple of 4 (NLA_ALIGN)
  messages are padded to a multiple of 4 (NLMSG_ALIGN); nlmsg_len excludes the final padding
  NLMSG_DONE       type 3, payload: s32 0
  NLMSG_ERROR      type 2, payload: s32 -errno, then the offending request's nlmsghdr
  struct ifinfomsg (linux/rtnetlink.h) 16 bytes: u8 family, u8 pad, u16 type (ARPHRD_*),
                                        s32 index, u32 flags (IFF_*), u32 change
  struct ifaddrmsg (linux/if_addr.h)    8 bytes: u8 family, u8 prefixlen, u8 flags, u8 scope, u32 index
  struct rtmsg     (linux/rtnetlink.h) 12 bytes: u8 family, dst_len, src_len, tos, table,
                                        protocol, scope, type; u32 flags
  struct genlmsghdr (linux/genetlink.h) 4 bytes: u8 cmd, u8 version, u16 reserved

Files (the expected values are asserted in Tests/ProcFSTests/NetlinkTests.swift and
NL80211Tests.swift; run this again after changing them):

  link-dump.bin            RTM_GETLINK dump reply (seq 1): lo, eth0, wlan0, docker0 (bridge),
                           wg0 (wireguard), veth3f2a1b9 (veth, IFLA_LINKINFO flagged NLA_F_NESTED),
                           then NLMSG_DONE
  addr-route-dump.bin      RTM_GETADDR dump reply (seq 2) then RTM_GETROUTE dump reply (seq 3),
                           each ending in NLMSG_DONE
  genl-family-nl80211.bin  CTRL_CMD_GETFAMILY reply for "nl80211": family id 0x1c (seq 4)
  nl80211-interface.bin    NL80211_CMD_GET_INTERFACE reply for wlan0 (seq 5): a 32-byte SSID
                           holding a NUL, control bytes, an escape sequence and invalid UTF-8
  nl80211-interface-enodev.bin  the same request answered NLMSG_ERROR -ENODEV (not Wi-Fi)
  nl80211-station.bin      NL80211_CMD_GET_STATION dump reply (seq 6): one station, signal
                           -52 dBm, tx bitrate 866.7 Mbit/s, then NLMSG_DONE
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
PID = 4242  # the port id the replies are addressed to

NLM_F_MULTI = 0x2
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLA_F_NESTED = 0x8000


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def attr(type_, value):
    """struct nlattr: u16 len (4 + value, unpadded), u16 type, value, padding to 4."""
    return pad4(struct.pack("<HH", 4 + len(value), type_) + value)


def u8(t, v): return attr(t, struct.pack("<B", v & 0xFF))
def u16(t, v): return attr(t, struct.pack("<H", v))
def u32(t, v): return attr(t, struct.pack("<I", v))
def s8(t, v): return attr(t, struct.pack("<b", v))
def u64(t, v): return attr(t, struct.pack("<Q", v))
def string(t, s): return attr(t, s + b"\0")
def nest(t, *children, flagged=False): return attr(t | (NLA_F_NESTED if flagged else 0), b"".join(children))
def flag(t): return attr(t, b"")


def message(type_, payload, seq, flags=0, pid=PID):
    """struct nlmsghdr + payload, padded to 4; nlmsg_len counts header + payload."""
    return pad4(struct.pack("<IHHII", 16 + len(payload), type_, flags, seq, pid) + payload)


def done(seq):
    return message(NLMSG_DONE, struct.pack("<i", 0), seq, NLM_F_MULTI)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


# ---- rtnetlink ---------------------------------------------------------------------
RTM_NEWLINK, RTM_NEWADDR, RTM_NEWROUTE = 16, 20, 24
IFLA_ADDRESS, IFLA_IFNAME, IFLA_MTU, IFLA_OPERSTATE, IFLA_LINKINFO, IFLA_CARRIER = 1, 3, 4, 16, 18, 33
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
IFF_UP, IFF_BROADCAST, IFF_LOOPBACK, IFF_POINTOPOINT, IFF_RUNNING, IFF_NOARP, IFF_MULTICAST, IFF_LOWER_UP = \
    0x1, 0x2, 0x8, 0x10, 0x40, 0x80, 0x1000, 0x10000
ARPHRD_ETHER, ARPHRD_LOOPBACK, ARPHRD_NONE = 1, 772, 65534
ETHER_UP = IFF_UP | IFF_BROADCAST | IFF_RUNNING | IFF_MULTICAST | IFF_LOWER_UP


def link(index, arphrd, flags, *attrs):
    ifinfomsg = struct.pack("<BBHiII", 0, 0, arphrd, index, flags, 0)
    return message(RTM_NEWLINK, ifinfomsg + b"".join(attrs), 1, NLM_F_MULTI)


def mac(*b): return bytes(b)


link_dump = b"".join([
    link(1, ARPHRD_LOOPBACK, IFF_UP | IFF_LOOPBACK | IFF_RUNNING | IFF_LOWER_UP,
         string(IFLA_IFNAME, b"lo"), u32(IFLA_MTU, 65536), u8(IFLA_OPERSTATE, 0), u8(IFLA_CARRIER, 1),
         attr(IFLA_ADDRESS, mac(0, 0, 0, 0, 0, 0))),
    link(2, ARPHRD_ETHER, ETHER_UP,
         string(IFLA_IFNAME, b"eth0"), u32(IFLA_MTU, 1500), u8(IFLA_OPERSTATE, 6), u8(IFLA_CARRIER, 1),
         attr(IFLA_ADDRESS, mac(0x52, 0x54, 0x00, 0x12, 0x34, 0x56))),
    link(3, ARPHRD_ETHER, ETHER_UP,
         string(IFLA_IFNAME, b"wlan0"), u32(IFLA_MTU, 1500), u8(IFLA_OPERSTATE, 6), u8(IFLA_CARRIER, 1),
         attr(IFLA_ADDRESS, mac(0x3c, 0xa9, 0xf4, 0x01, 0x02, 0x03))),
    link(5, ARPHRD_ETHER, IFF_UP | IFF_BROADCAST | IFF_MULTICAST,
         string(IFLA_IFNAME, b"docker0"), u8(IFLA_OPERSTATE, 2), u8(IFLA_CARRIER, 0),
         nest(IFLA_LINKINFO, string(IFLA_INFO_KIND, b"bridge"), nest(IFLA_INFO_DATA, u32(1, 1500)))),
    link(6, ARPHRD_NONE, IFF_UP | IFF_POINTOPOINT | IFF_NOARP | IFF_RUNNING | IFF_LOWER_UP,
         string(IFLA_IFNAME, b"wg0"), u8(IFLA_OPERSTATE, 0), u8(IFLA_CARRIER, 1),
         nest(IFLA_LINKINFO, string(IFLA_INFO_KIND, b"wireguard"))),
    link(7, ARPHRD_ETHER, ETHER_UP,
         string(IFLA_IFNAME, b"veth3f2a1b9"), u8(IFLA_OPERSTATE, 6), u8(IFLA_CARRIER, 1),
         nest(IFLA_LINKINFO, string(IFLA_INFO_KIND, b"veth"), flagged=True)),
    done(1),
])
write("link-dump.bin", link_dump)

IFA_ADDRESS, IFA_LOCAL, IFA_LABEL, IFA_BROADCAST, IFA_FLAGS = 1, 2, 3, 4, 8
AF_INET, AF_INET6 = 2, 10
RT_SCOPE_UNIVERSE, RT_SCOPE_LINK, RT_SCOPE_HOST = 0, 253, 254
IFA_F_PERMANENT = 0x80


def address(family, prefix, scope, index, *attrs, flags=0):
    ifaddrmsg = struct.pack("<BBBBI", family, prefix, flags & 0xFF, scope, index)
    return message(RTM_NEWADDR, ifaddrmsg + b"".join(attrs), 2, NLM_F_MULTI)


def v4(a, b, c, d): return bytes([a, b, c, d])


def v6(text):
    import ipaddress
    return ipaddress.IPv6Address(text).packed


RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_PRIORITY, RTA_PREFSRC, RTA_TABLE, RTA_PREF = 1, 4, 5, 6, 7, 15, 20
RT_TABLE_MAIN, RT_TABLE_LOCAL = 254, 255
RTN_UNICAST, RTN_LOCAL = 1, 2
RTPROT_KERNEL, RTPROT_BOOT, RTPROT_DHCP, RTPROT_RA = 2, 3, 16, 9


def route(family, dst_len, table, scope, type_, *attrs, protocol=RTPROT_BOOT):
    rtmsg = struct.pack("<BBBBBBBBI", family, dst_len, 0, 0, min(table, 255), protocol, scope, type_, 0)
    return message(RTM_NEWROUTE, rtmsg + b"".join(attrs), 3, NLM_F_MULTI)


addr_route_dump = b"".join([
    address(AF_INET, 8, RT_SCOPE_HOST, 1, attr(IFA_ADDRESS, v4(127, 0, 0, 1)), attr(IFA_LOCAL, v4(127, 0, 0, 1)),
            string(IFA_LABEL, b"lo"), u32(IFA_FLAGS, IFA_F_PERMANENT), flags=IFA_F_PERMANENT),
    address(AF_INET6, 128, RT_SCOPE_HOST, 1, attr(IFA_ADDRESS, v6("::1")), u32(IFA_FLAGS, IFA_F_PERMANENT)),
    address(AF_INET, 24, RT_SCOPE_UNIVERSE, 2, attr(IFA_ADDRESS, v4(192, 168, 1, 20)), attr(IFA_LOCAL, v4(192, 168, 1, 20)),
            attr(IFA_BROADCAST, v4(192, 168, 1, 255)), string(IFA_LABEL, b"eth0")),
    address(AF_INET6, 64, RT_SCOPE_LINK, 2, attr(IFA_ADDRESS, v6("fe80::5054:ff:fe12:3456"))),
    address(AF_INET6, 64, RT_SCOPE_UNIVERSE, 2, attr(IFA_ADDRESS, v6("2001:db8::20"))),
    address(AF_INET, 24, RT_SCOPE_UNIVERSE, 3, attr(IFA_ADDRESS, v4(10, 0, 0, 5)), attr(IFA_LOCAL, v4(10, 0, 0, 5))),
    # Point-to-point: IFA_ADDRESS is the peer, IFA_LOCAL ours.
    address(AF_INET, 32, RT_SCOPE_UNIVERSE, 6, attr(IFA_ADDRESS, v4(10, 8, 0, 1)), attr(IFA_LOCAL, v4(10, 8, 0, 2))),
    done(2),
    route(AF_INET, 0, RT_TABLE_MAIN, RT_SCOPE_UNIVERSE, RTN_UNICAST, u32(RTA_TABLE, RT_TABLE_MAIN),
          u32(RTA_PRIORITY, 600), attr(RTA_GATEWAY, v4(10, 0, 0, 1)), u32(RTA_OIF, 3), protocol=RTPROT_DHCP),
    route(AF_INET, 0, RT_TABLE_MAIN, RT_SCOPE_UNIVERSE, RTN_UNICAST, u32(RTA_TABLE, RT_TABLE_MAIN),
          u32(RTA_PRIORITY, 100), attr(RTA_GATEWAY, v4(192, 168, 1, 1)), u32(RTA_OIF, 2), protocol=RTPROT_DHCP),
    route(AF_INET, 24, RT_TABLE_MAIN, RT_SCOPE_LINK, RTN_UNICAST, u32(RTA_TABLE, RT_TABLE_MAIN),
          attr(RTA_DST, v4(192, 168, 1, 0)), attr(RTA_PREFSRC, v4(192, 168, 1, 20)), u32(RTA_OIF, 2),
          protocol=RTPROT_KERNEL),
    route(AF_INET, 32, RT_TABLE_LOCAL, RT_SCOPE_HOST, RTN_LOCAL, u32(RTA_TABLE, RT_TABLE_LOCAL),
          attr(RTA_DST, v4(127, 0, 0, 1)), u32(RTA_OIF, 1), protocol=RTPROT_KERNEL),
    route(AF_INET6, 0, RT_TABLE_MAIN, RT_SCOPE_UNIVERSE, RTN_UNICAST, u32(RTA_TABLE, RT_TABLE_MAIN),
          attr(RTA_GATEWAY, v6("fe80::1")), u32(RTA_OIF, 2), u32(RTA_PRIORITY, 1024), u8(RTA_PREF, 0),
          protocol=RTPROT_RA),
    done(3),
])
write("addr-route-dump.bin", addr_route_dump)

# ---- generic netlink, nl80211 ---------------------------------------------------------
GENL_ID_CTRL, CTRL_CMD_NEWFAMILY = 0x10, 1
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_VERSION, CTRL_ATTR_HDRSIZE, CTRL_ATTR_MAXATTR, \
    CTRL_ATTR_OPS, CTRL_ATTR_MCAST_GROUPS = 1, 2, 3, 4, 5, 6, 7
CTRL_ATTR_OP_ID, CTRL_ATTR_OP_FLAGS = 1, 2
CTRL_ATTR_MCAST_GRP_NAME, CTRL_ATTR_MCAST_GRP_ID = 1, 2
NL80211_FAMILY = 0x1C


def genl(family, cmd, version, attrs, seq, flags=0):
    return message(family, struct.pack("<BBH", cmd, version, 0) + b"".join(attrs), seq, flags)


write("genl-family-nl80211.bin", genl(GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 2, [
    string(CTRL_ATTR_FAMILY_NAME, b"nl80211"),
    u16(CTRL_ATTR_FAMILY_ID, NL80211_FAMILY),
    u32(CTRL_ATTR_VERSION, 1),
    u32(CTRL_ATTR_HDRSIZE, 0),
    u32(CTRL_ATTR_MAXATTR, 330),
    nest(CTRL_ATTR_OPS, nest(1, u32(CTRL_ATTR_OP_ID, 1), u32(CTRL_ATTR_OP_FLAGS, 0x0E)),
         nest(2, u32(CTRL_ATTR_OP_ID, 5), u32(CTRL_ATTR_OP_FLAGS, 0x0E))),
    nest(CTRL_ATTR_MCAST_GROUPS, nest(1, string(CTRL_ATTR_MCAST_GRP_NAME, b"config"), u32(CTRL_ATTR_MCAST_GRP_ID, 4)),
         nest(2, string(CTRL_ATTR_MCAST_GRP_NAME, b"scan"), u32(CTRL_ATTR_MCAST_GRP_ID, 5))),
], 4))

NL80211_CMD_GET_INTERFACE, NL80211_CMD_NEW_INTERFACE, NL80211_CMD_NEW_STATION = 5, 7, 19
NL80211_ATTR_WIPHY, NL80211_ATTR_IFINDEX, NL80211_ATTR_IFNAME, NL80211_ATTR_IFTYPE, NL80211_ATTR_MAC = 1, 3, 4, 5, 6
NL80211_ATTR_STA_INFO, NL80211_ATTR_WIPHY_FREQ, NL80211_ATTR_GENERATION, NL80211_ATTR_SSID = 21, 38, 46, 52
NL80211_ATTR_WDEV, NL80211_ATTR_4ADDR, NL80211_ATTR_WIPHY_TX_POWER_LEVEL = 153, 83, 98
NL80211_IFTYPE_STATION = 2

# 32 bytes exactly: UTF-8 "Café", a NUL, BEL, an ANSI colour escape, bytes that are not
# UTF-8 (0xFF 0xFE, a lone continuation 0x80), tab, DEL, CR LF, then padding.
SSID = b"Caf\xc3\xa9\x00\x07\x1b[31m\xff\xfe\x80\tnet\x7f\r\n"
SSID += b"-" * (32 - len(SSID))
assert len(SSID) == 32, len(SSID)

write("nl80211-interface.bin", genl(NL80211_FAMILY, NL80211_CMD_NEW_INTERFACE, 1, [
    u32(NL80211_ATTR_IFINDEX, 3),
    string(NL80211_ATTR_IFNAME, b"wlan0"),
    u32(NL80211_ATTR_WIPHY, 0),
    u32(NL80211_ATTR_IFTYPE, NL80211_IFTYPE_STATION),
    u64(NL80211_ATTR_WDEV, 1),
    attr(NL80211_ATTR_MAC, mac(0x3c, 0xa9, 0xf4, 0x01, 0x02, 0x03)),
    u32(NL80211_ATTR_GENERATION, 7),
    u8(NL80211_ATTR_4ADDR, 0),
    attr(NL80211_ATTR_SSID, SSID),
    u32(NL80211_ATTR_WIPHY_FREQ, 5180),
    u32(NL80211_ATTR_WIPHY_TX_POWER_LEVEL, 2200),
], 5))

# NLMSG_ERROR: s32 -ENODEV, then the request's header (NLM_F_CAPPED-less: the whole request).
request = genl(NL80211_FAMILY, NL80211_CMD_GET_INTERFACE, 0, [u32(NL80211_ATTR_IFINDEX, 2)], 5, 0x1)
write("nl80211-interface-enodev.bin", message(NLMSG_ERROR, struct.pack("<i", -19) + request, 5))

NL80211_STA_INFO_INACTIVE_TIME, NL80211_STA_INFO_RX_BYTES, NL80211_STA_INFO_TX_BYTES = 1, 2, 3
NL80211_STA_INFO_SIGNAL, NL80211_STA_INFO_TX_BITRATE, NL80211_STA_INFO_RX_PACKETS = 7, 8, 9
NL80211_STA_INFO_SIGNAL_AVG, NL80211_STA_INFO_RX_BITRATE, NL80211_STA_INFO_CHAIN_SIGNAL = 13, 14, 19
NL80211_RATE_INFO_BITRATE, NL80211_RATE_INFO_BITRATE32 = 1, 5
NL80211_RATE_INFO_VHT_MCS, NL80211_RATE_INFO_VHT_NSS, NL80211_RATE_INFO_80_MHZ_WIDTH = 6, 7, 8

write("nl80211-station.bin", genl(NL80211_FAMILY, NL80211_CMD_NEW_STATION, 1, [
    u32(NL80211_ATTR_IFINDEX, 3),
    attr(NL80211_ATTR_MAC, mac(0x9c, 0x53, 0x22, 0xaa, 0xbb, 0xcc)),
    u32(NL80211_ATTR_GENERATION, 7),
    nest(NL80211_ATTR_STA_INFO,
         u32(NL80211_STA_INFO_INACTIVE_TIME, 40),
         u32(NL80211_STA_INFO_RX_BYTES, 123456),
         u32(NL80211_STA_INFO_TX_BYTES, 65432),
         u32(NL80211_STA_INFO_RX_PACKETS, 987),
         s8(NL80211_STA_INFO_SIGNAL, -52),
         s8(NL80211_STA_INFO_SIGNAL_AVG, -54),
         nest(NL80211_STA_INFO_CHAIN_SIGNAL, s8(0, -53), s8(1, -55)),
         nest(NL80211_STA_INFO_TX_BITRATE,
              u16(NL80211_RATE_INFO_BITRATE, 8667), u32(NL80211_RATE_INFO_BITRATE32, 8667),
              u8(NL80211_RATE_INFO_VHT_MCS, 9), u8(NL80211_RATE_INFO_VHT_NSS, 2),
              flag(NL80211_RATE_INFO_80_MHZ_WIDTH)),
         nest(NL80211_STA_INFO_RX_BITRATE, u32(NL80211_RATE_INFO_BITRATE32, 5200)),
         flagged=True),
], 6, NLM_F_MULTI) + done(6))
