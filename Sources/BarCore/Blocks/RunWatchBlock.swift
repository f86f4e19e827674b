import SnapshotCodec

/// `DHCP: yes`: whether the process a pid file names runs, i3status's run_watch. `pidfile` may
/// end in a glob (`/var/run/dhclient*.pid`: yes when any file it matches names a running
/// process, as i3status 2.14 says; `~/` is the home directory), the pid is its first number,
/// and the process is asked for with kill(pid, 0); critical, i3status's bad colour, while
/// none runs. The program looks before each update (``FileBlock``).
enum RunWatchBlock {
    static let descriptor = BlockDescriptor(
        name: "run_watch", label: "run_watch", section: [], argumentKey: "pidfile", source: .files(.process),
        present: { _, c in FileBlock.isGood(c) },
        placeholders: [FileBlock.title, FileBlock.status],
        render: FileBlock.renderStatus)
}
