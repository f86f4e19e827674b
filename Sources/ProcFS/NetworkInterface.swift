/// What rtnetlink says about one network interface (an ``InterfaceTable`` entry).
public struct NetworkInterface: Equatable, Sendable {
    /// `IF_OPER_*` from <linux/if.h> (RFC 2863 operational status), as `IFLA_OPERSTATE` gives it.
    public enum OperationalState: UInt8, Sendable {
        case unknown = 0, notPresent, down, lowerLayerDown, testing, dormant, up
    }

    /// The kernel's ifindex (`ifi_index`), > 0.
    public var index: Int32
    /// `IFLA_IFNAME`; empty until a message names it.
    public var name = ShortName()
    /// `ifi_flags` (`IFF_*` from <linux/if.h>), raw.
    public var flags: UInt32 = 0
    /// `ifi_type`: the link layer, `ARPHRD_*` from <linux/if_arp.h> (1 Ethernet and Wi-Fi, 772 loopback, 65534 none).
    public var hardwareType: UInt16 = 0
    /// `IFLA_OPERSTATE`; `.unknown` when absent or out of range.
    public var operationalState = OperationalState.unknown
    /// `IFLA_CARRIER`; nil when absent.
    public var carrier: Bool?
    /// `IFLA_LINKINFO` → `IFLA_INFO_KIND` (`veth`, `bridge`, `tun`, `wireguard`, …); empty for physical devices.
    public var kind = ShortName()
    /// The first IPv4 address seen (`IFA_LOCAL`, else `IFA_ADDRESS`); nil when none.
    public var ipv4: InterfaceAddress?
    /// The first global-scope IPv6 address seen that has passed duplicate detection; nil when none.
    public var ipv6: InterfaceAddress?

    public init(index: Int32) { self.index = index }

    /// `IFF_UP`: administratively up.
    public var isUp: Bool { flags & Netlink.interfaceUp != 0 }
    /// `IFF_LOOPBACK`.
    public var isLoopback: Bool { flags & Netlink.interfaceLoopback != 0 }
    /// `IFF_RUNNING`: up with carrier (operationally up).
    public var isRunning: Bool { flags & Netlink.interfaceRunning != 0 }

    /// Whether the interface is not a network card: loopback, a link kind of software
    /// devices (``virtualKinds``), or — when the kernel gave no kind — a name that
    /// container, VM and VPN tools use (``virtualNamePrefixes``). Bonds, teams and VLANs
    /// count as real: they carry a real card's traffic. A VPN (`tun`, `wireguard`) is
    /// virtual even when it holds the default route; the caller decides what to show.
    public var isVirtual: Bool {
        if isLoopback || hardwareType == 772 { return true }  // ARPHRD_LOOPBACK
        if !kind.isEmpty {
            // Index loops: a for-in over an array allocates per element in debug builds.
            let kinds = NetworkInterface.virtualKinds
            for i in 0..<kinds.count where kind.equals(kinds[i]) { return true }
            return false
        }
        let prefixes = NetworkInterface.virtualNamePrefixes
        for i in 0..<prefixes.count where name.hasPrefix(prefixes[i]) { return true }
        return false
    }

    /// Link kinds (`rtnl_link_ops.kind`) of software devices.
    public static let virtualKinds: [StaticString] = [
        "veth", "bridge", "tun", "tap", "wireguard", "vxlan", "geneve", "dummy", "ifb",
        "macvlan", "macvtap", "ipvlan", "ipvtap", "vrf", "gre", "gretap", "ip6gre", "ip6gretap",
        "ipip", "ip6tnl", "sit", "vti", "vti6", "xfrm", "erspan", "ip6erspan", "nlmon",
        "vcan", "vxcan", "bareudp", "gtp", "netdevsim", "openvswitch", "amt",
    ]

    /// Name prefixes of software devices, used only when the kernel gave no kind
    /// (older kernels, devices without `rtnl_link_ops`).
    public static let virtualNamePrefixes: [StaticString] = [
        "docker", "br-", "virbr", "veth", "vnet", "tun", "tap", "wg", "vmnet", "vboxnet",
        "lxcbr", "lxdbr", "cni", "flannel", "cali", "podman", "tailscale", "zt", "dummy",
        "ifb", "vxlan", "kube-",
    ]
}
