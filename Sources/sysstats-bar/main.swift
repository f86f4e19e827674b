// sysstats-bar: shows what sysstatsd measured, in the bar the user already has.
// Embedded Swift; the logic is in BarCore, the event loop in BarRuntime.

import BarCoreEmbedded
import BarRuntime
import CBarSys

let options = optionsOrExit()
if options.output == .x11Root {
    // The X11 output lives in its own binary, so that this one does not load libX11.
    execSibling("sysstats-bar-x11")
    writeError("sysstats-bar: cannot run sysstats-bar-x11 (installed next to sysstats-bar?)")
    exit(1)
}
runBar(options, sink: StdoutSink())
