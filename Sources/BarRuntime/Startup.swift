// What both renderer binaries do before and after choosing their output:
// parse the command line (exit 2 on a bad one, 0 after --help), then run. A mistake in the
// config file never stops the bar: it runs with the built-in defaults and shows the mistake.

import BarCore
import CommandOptions
import SnapshotCodec
import CBarSys
import CClock

/// What the command line asks for: run with these options (and a notice of the config file's
/// mistake to show, or empty), or end at once with a status (`--help`, `--version`, a bad
/// command line).
public enum BarStart {
    case run(BarOptions, notice: [UInt8])
    case exit(Int32)
}

/// The parsed command line (`arguments`, the program's own by default) over the config
/// file; `.exit(2)` with one line on stderr for a bad command line, `.exit(0)` after
/// `--help` or `--version`. A bad config file is no reason to stop: its whole message goes
/// to stderr, the bar runs with the built-in defaults (the command line still applies) and
/// shows the mistake (``configNotice(_:path:)``) until the file is fixed; the bar watches it.
/// `program` is the name `--version` prints: each binary's own (sysstats-bar-x11 and
/// sysstats-bar-wayland run directly name themselves).
public func startOptions(_ arguments: [[UInt8]] = programArguments(), program: StaticString = "sysstats-bar") -> BarStart {
    var options: BarOptions
    do throws(OptionsError) {
        options = try BarOptions.parse(arguments)
    } catch {
        var line = ByteWriter(capacity: 512)
        error.describe(into: &line)
        line.append(UInt8(ascii: "\n"))
        _ = line.bytes.withUnsafeBytes { writeAll(2, $0) }
        return .exit(2)
    }
    if options.version {
        var text = ByteWriter(capacity: 64)
        text.append(program)
        text.append(UInt8(ascii: " "))
        text.append(sysstatsVersion)
        text.append(UInt8(ascii: "\n"))
        let err = text.bytes.withUnsafeBytes { writeAll(1, $0) }
        if err != 0 {
            _ = writeAll(2, UnsafeRawBufferPointer(start: program.utf8Start, count: program.utf8CodeUnitCount))
            writeFailed(": cannot write to stdout: ", err)
            return .exit(1)
        }
        return .exit(0)
    }
    if options.help {
        var text = ByteWriter(capacity: 4096)
        helpText(into: &text)
        let err = text.bytes.withUnsafeBytes { writeAll(1, $0) }
        if err != 0 { writeFailed("sysstats-bar: cannot write to stdout: ", err); return .exit(1) }
        return .exit(0)
    }
    var notice: [UInt8] = []
    if let path = configFilePath(options) {
        var included: [[UInt8]] = []
        switch loadConfig(path, explicit: options.configPath != nil, included: &included) {
        case .none: break
        case .loaded(let config):
            // Said to a running bar, whose file the user may edit expecting a change; a
            // `--once` line names its blocks for this one line (said each time, it was noise).
            if options.blocksGiven && !options.once && config.blocks != nil { reportBlocksOverride(path) }
            options = options.applying(config)
        case .failed(let line):
            reportConfigMistake(line)
            notice = configNotice(line, path: path)
        }
        options.includedFiles = included
    }
    // Day and month names in the user's language: only when a clock shows them (the locale's
    // pages are not loaded otherwise).
    if options.blocks.contains(where: { $0.kind.isClock }) { cclock_use_locale_time() }
    return .run(options, notice: notice)
}

/// Runs `body` with the options (and a config mistake's notice) when the command line asks
/// to run, and returns its status; else the status ``startOptions()`` ends with.
public func runWithStartOptions(program: StaticString = "sysstats-bar", _ body: (BarOptions, [UInt8]) -> Int32) -> Int32 {
    switch startOptions(program: program) {
    case .exit(let status): return status
    case .run(let options, let notice): return body(options, notice)
    }
}

/// Says on stderr that `--blocks` replaces the file's `[[block]]` list (issue 29: edits to
/// the file changed nothing and nothing said why).
func reportBlocksOverride(_ path: [UInt8]) {
    var line = ByteWriter(capacity: 256 + path.count)
    line.append("sysstats-bar: --blocks replaces the [[block]] list of ")
    line.append(escaped: path, .plain)
    line.append(": edits to it change nothing while the flag is given\n")
    _ = line.bytes.withUnsafeBytes { writeAll(2, $0) }
}

/// The config file's whole message on stderr, one line: `sysstats-bar: PATH:LINE:COL: reason`.
func reportConfigMistake(_ message: [UInt8]) {
    var line = Array("sysstats-bar: ".utf8)
    line.append(contentsOf: message)
    line.append(UInt8(ascii: "\n"))
    _ = line.withUnsafeBytes { writeAll(2, $0) }
}

/// Runs the renderer into `sink` (once with `--once`), in the runtime dir the options
/// or the environment name, showing `notice` (a config file's mistake) until a good file
/// replaces it; returns the exit status.
public func runBar<Sink: BarSink>(_ options: BarOptions, sink: Sink, notice: [UInt8] = []) -> Int32 {
    let xdg = getenv("XDG_RUNTIME_DIR").map { cStringBytes($0) }
    var bar = Bar(options: options, runtimeDir: resolveRuntimeDir(option: options.runtimeDir, xdgRuntimeDir: xdg, uid: getuid()),
                  sink: sink)
    bar.configMistake = notice
    // The programs only: a bar in a test's process would follow the test runner's file.
    if !options.once { bar.program = ProgramFile.current(nowMs: UInt64(cbarsys_realtime_ms())) }
    return options.once ? bar.runOnce() : bar.run()
}
