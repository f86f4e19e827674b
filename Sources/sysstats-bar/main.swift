// sysstats-bar: shows what sysstatsd measured, in the bar the user already has.
// Embedded Swift; the logic is in BarCore, the event loop in BarRuntime. The one exit().

import BarCore
import BarRuntime
import CBarSys

func main(_ options: BarOptions, notice: [UInt8]) -> Int32 {
    switch options.output {
    case .x11Root, .x11Window:
        // The X11 outputs live in their own binary, so that this one does not load libxcb.
        execSibling("sysstats-bar-x11")
        writeError("sysstats-bar: cannot run sysstats-bar-x11 (installed next to sysstats-bar?)")
        return 1
    case .waylandPanel:
        // And the Wayland panel in a third, so that neither loads libwayland-client.
        execSibling("sysstats-bar-wayland")
        writeError("sysstats-bar: cannot run sysstats-bar-wayland (installed next to sysstats-bar?)")
        return 1
    case .panel:
        if sessionIsWayland() {
            execSibling("sysstats-bar-wayland")
            writeError("sysstats-bar: cannot run sysstats-bar-wayland (installed next to sysstats-bar?)")
        } else {
            execSibling("sysstats-bar-x11")
            writeError("sysstats-bar: cannot run sysstats-bar-x11 (installed next to sysstats-bar?)")
        }
        return 1
    case .png:
        return runBar(options, sink: PNGFileSink(path: options.imagePath ?? [], width: options.width, height: options.height), notice: notice)
    case .genmon:
        return runGenmon(options)
    case .text, .tmux, .lemonbar, .polybar, .i3bar, .waybar:
        return runBar(options, sink: StdoutSink(), notice: notice)
    }
}

exit(runWithStartOptions(main))
