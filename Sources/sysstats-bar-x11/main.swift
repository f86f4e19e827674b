// sysstats-bar-x11: the X11 outputs of sysstats-bar in their own binary, so
// that the text and i3bar modes do not load an X library (libxcb). `sysstats-bar --output
// x11-root` (or x11-window) execs this program with the same arguments.

import BarCore
import BarRuntime
import CBarSys
import SnapshotCodec

func main(_ options: BarOptions, notice: [UInt8]) -> Int32 {
    switch options.output {
    case .x11Window, .panel:
        guard let sink = X11WindowSink(options: options) else { return 1 }
        return runBar(options, sink: sink, notice: notice)
    default:
        var rootOptions = options
        rootOptions.output = .x11Root
        guard let sink = X11RootSink() else {
            writeError("sysstats-bar: cannot open the X display (is DISPLAY set?)")
            return 1
        }
        return runBar(rootOptions, sink: sink, notice: notice)
    }
}

exit(runWithStartOptions(program: "sysstats-bar-x11", main))
