// sysstats-bar-x11: the X11 outputs of sysstats-bar in their own binary, so
// that the text and i3bar modes do not load an X library (libxcb). `sysstats-bar --output
// x11-root` (or x11-window) execs this program with the same arguments.

import BarCoreEmbedded
import BarRuntime
import CBarSys
import SnapshotCodecEmbedded

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

/// `--version` run directly names this binary, not sysstats-bar (whose own --version is
/// answered before it would exec this one); anything else is the shared start-up's.
func printVersionIfAsked() -> Int32? {
    guard let options = try? BarOptions.parse(commandLineArguments()), options.version else { return nil }
    var text = ByteWriter(capacity: 64)
    text.append("sysstats-bar-x11 ")
    text.append(sysstatsVersion)
    text.append(UInt8(ascii: "\n"))
    let err = text.bytes.withUnsafeBytes { writeAll(1, $0) }
    if err != 0 { writeFailed("sysstats-bar-x11: cannot write to stdout: ", err); return 1 }
    return 0
}

exit(printVersionIfAsked() ?? runWithStartOptions(main))
