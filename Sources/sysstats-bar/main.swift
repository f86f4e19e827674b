// sysstats-bar: shows what sysstatsd measured, in the bar the user already has.
// Embedded Swift; the logic is in BarCore, the event loop in BarRuntime.

import BarCoreEmbedded
import BarRuntime
import CBarSys

func main() -> Never {
    let options: BarOptions
    do throws(OptionsError) {
        options = try BarOptions.parse(commandLineArguments())
    } catch {
        writeError(error.message)
        exit(2)
    }
    if options.help {
        let u = usageText
        _ = writeAll(1, UnsafeRawBufferPointer(start: u.utf8Start, count: u.utf8CodeUnitCount))
        exit(0)
    }
    if options.output == .x11Root {
        // The X11 output lives in its own binary, so that this one does not load libX11.
        execSibling("sysstats-bar-x11")
        writeError("sysstats-bar: cannot run sysstats-bar-x11 (installed next to sysstats-bar?)")
        exit(1)
    }
    let xdg = getenv("XDG_RUNTIME_DIR").map { cStringBytes($0) }
    var bar = Bar(options: options, runtimeDir: resolveRuntimeDir(option: options.runtimeDir, xdgRuntimeDir: xdg, uid: getuid()),
                  sink: StdoutSink())
    if options.once { bar.runOnce() }
    bar.run()
}

main()
