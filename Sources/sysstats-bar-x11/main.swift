// sysstats-bar-x11: the x11-root output of sysstats-bar in its own binary, so
// that the text and i3bar modes do not load libX11. `sysstats-bar --output
// x11-root` execs this program with the same arguments.

import BarCoreEmbedded
import BarRuntime
import CBarSys

func main() -> Never {
    var options = optionsOrExit()
    options.output = .x11Root
    guard let sink = X11RootSink() else {
        writeError("sysstats-bar: cannot open the X display (is DISPLAY set?)")
        exit(1)
    }
    runBar(options, sink: sink)
}

main()
