// sysstats-bar-wayland: the wayland-panel output of sysstats-bar in its own binary, so
// that the other outputs do not load libwayland-client. `sysstats-bar --output
// wayland-panel` (or panel, in a Wayland session) execs this program with the same arguments.

import BarCoreEmbedded
import BarRuntime
import CBarSys
import SnapshotCodecEmbedded

func main(_ options: BarOptions, notice: [UInt8]) -> Int32 {
    guard let sink = WaylandPanelSink(options: options) else { return 1 }
    var panelOptions = options
    panelOptions.output = .waylandPanel
    return runBar(panelOptions, sink: sink, notice: notice)
}

/// `--version` run directly names this binary, not sysstats-bar (whose own --version is
/// answered before it would exec this one); anything else is the shared start-up's.
func printVersionIfAsked() -> Int32? {
    guard let options = try? BarOptions.parse(commandLineArguments()), options.version else { return nil }
    var text = ByteWriter(capacity: 64)
    text.append("sysstats-bar-wayland ")
    text.append(sysstatsVersion)
    text.append(UInt8(ascii: "\n"))
    let err = text.bytes.withUnsafeBytes { writeAll(1, $0) }
    if err != 0 { writeFailed("sysstats-bar-wayland: cannot write to stdout: ", err); return 1 }
    return 0
}

exit(printVersionIfAsked() ?? runWithStartOptions(main))
