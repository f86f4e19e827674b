// sysstats-bar-wayland: the wayland-panel output of sysstats-bar in its own binary, so
// that the other outputs do not load libwayland-client. `sysstats-bar --output
// wayland-panel` (or panel, in a Wayland session) execs this program with the same arguments.

import BarCore
import BarRuntime
import CBarSys
import SnapshotCodec

func main(_ options: BarOptions, notice: [UInt8]) -> Int32 {
    guard let sink = WaylandPanelSink(options: options) else { return 1 }
    var panelOptions = options
    panelOptions.output = .waylandPanel
    return runBar(panelOptions, sink: sink, notice: notice)
}

exit(runWithStartOptions(program: "sysstats-bar-wayland", main))
