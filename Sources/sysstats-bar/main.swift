// sysstats-bar: shows what sysstatsd measured, in the bar the user already has.
// Embedded Swift; all logic is in BarCore and EventLoop.swift.

import BarCoreEmbedded
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
    let xdg = getenv("XDG_RUNTIME_DIR").map { cStringBytes($0) }
    var bar = Bar(options: options, runtimeDir: resolveRuntimeDir(option: options.runtimeDir, xdgRuntimeDir: xdg, uid: getuid()))
    if options.once { bar.runOnce() }
    bar.run()
}

main()
