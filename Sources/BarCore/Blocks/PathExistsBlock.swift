import SnapshotCodec

/// `VPN: yes`: whether a path is there (stat(2), a link followed), i3status's path_exists:
/// `path = "/proc/sys/net/ipv4/conf/tun0"` says whether a tunnel is up. Critical, i3status's
/// bad colour, while it is not. The program looks before each update (``FileBlock``).
enum PathExistsBlock {
    static let descriptor = BlockDescriptor(
        name: "path_exists", label: "path_exists", section: [], argumentKey: "path", source: .files(.exists),
        present: { _, c in FileBlock.isGood(c) },
        placeholders: [FileBlock.title, FileBlock.status],
        render: FileBlock.renderStatus)
}
