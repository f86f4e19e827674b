// sysstats-bar-x11: the x11-root output of sysstats-bar in its own binary, so
// that the text and i3bar modes do not load libX11. `sysstats-bar --output
// x11-root` execs this program with the same arguments.

import BarCoreEmbedded
import BarRuntime
import CBarSys

func main() -> Never {
    var options: BarOptions
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
    options.output = .x11Root
    guard let sink = X11RootSink() else {
        writeError("sysstats-bar: cannot open the X display (is DISPLAY set?)")
        exit(1)
    }
    let xdg = getenv("XDG_RUNTIME_DIR").map { cStringBytes($0) }
    var bar = Bar(options: options, runtimeDir: resolveRuntimeDir(option: options.runtimeDir, xdgRuntimeDir: xdg, uid: getuid()),
                  sink: sink)
    if options.once { bar.runOnce() }
    bar.run()
}

main()
