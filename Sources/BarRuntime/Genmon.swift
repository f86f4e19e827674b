// `--output genmon`: one run per plugin period. xfce4-genmon-plugin starts the
// command, reads stdout once and shows it, so this mode is one-shot: draw the
// panel, write it as PNG (default RUNTIME-DIR/panel.png), print the tags, exit.
// The graph form survives between runs in RUNTIME-DIR/panel-form; the `<click>`
// command (`sysstats-bar --output genmon --click 1`) advances it.

import BarCore
import SnapshotCodec
import CBarSys

/// Runs genmon mode (or applies `--click`) and returns the exit status: 0 for a current
/// snapshot; 1 when it is missing, unreadable or stale (the tags say so), when the
/// picture or the tags cannot be written (one line on stderr says which and why), or when
/// `--click` cannot save the form; 2 for an image path genmon could not read back.
public func runGenmon(_ options: BarOptions) -> Int32 {
    let xdg = getenv("XDG_RUNTIME_DIR").map { cStringBytes($0) }
    let dir = resolveRuntimeDir(option: options.runtimeDir, xdgRuntimeDir: xdg, uid: getuid())
    var formPath = dir
    for b in "/panel-form".utf8 { formPath.append(b) }
    var dirC = dir
    dirC.append(0)
    if case .refused(let why) = checkRuntimeDir(dirC) {
        // Neither read the snapshot nor write the picture or the form into it.
        writeError("sysstats-bar: ", why)
        if options.click != 0 { return 1 }
        var writer = GenmonWriter()
        writer.write(snapshot: nil, message: why, line: [], image: nil, click: nil)
        _ = writer.output.bytes.withUnsafeBytes { writeAll(1, $0) }
        return 1
    }
    if options.click != 0 {
        var form = readGraphForm(formPath)
        form = options.click == 1 ? form.next : form.previous
        var temporary = dir
        for b in "/.panel-form.tmp".utf8 { temporary.append(b) }
        temporary.append(0)
        formPath.append(0)
        let err = writeAtomically(temporary, formPath, [UInt8(ascii: "0") + form.rawValue, UInt8(ascii: "\n")])
        if err != 0 { writeError("sysstats-bar: cannot save the graph form in the runtime dir"); return 1 }
        return 0
    }
    var imagePath: [UInt8]
    if let p = options.imagePath {
        imagePath = p
    } else {
        imagePath = dir
        for b in "/panel.png".utf8 { imagePath.append(b) }
    }
    guard GenmonWriter.isSafeRaw(imagePath) else {
        writeError("sysstats-bar: genmon reads the image path raw: use letters, digits and / . _ + - , only (--image)")
        return 2
    }
    var bar = Bar(options: options, runtimeDir: dir, sink: PNGFileSink(path: imagePath, width: options.width,
                                                                          height: options.height))
    // The panel runs this every few seconds: the first run with no sampler starts one, the
    // next shows its figures.
    _ = bar.starter.startIfNeeded(nowMs: bar.nowMs())
    bar.panel?.graphForm = readGraphForm(formPath)
    return bar.genmonOnce(imagePath: imagePath, click: clickCommand(runtimeDir: dir))
}

/// The persisted graph form (`0` to `3` in the file); bars when missing or bad.
func readGraphForm(_ path: [UInt8]) -> GraphForm {
    var p = path
    p.append(0)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
    defer { buffer.deallocate() }
    let n = readFile(p, into: buffer)
    guard n >= 1, buffer[0] >= UInt8(ascii: "0") else { return .bars }
    return GraphForm(rawValue: buffer[0] - UInt8(ascii: "0")) ?? .bars
}

/// `EXE --output genmon --runtime-dir DIR --click 1`, with this program's path from
/// /proc/self/exe; nil when that cannot be read.
func clickCommand(runtimeDir: [UInt8]) -> [UInt8]? {
    var path = [UInt8](repeating: 0, count: 4096)
    let n = path.withUnsafeMutableBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: 4096) { readlink("/proc/self/exe", $0, 4096) }
    }
    guard n > 0 else { return nil }
    var command: [UInt8] = []
    for i in 0..<n { command.append(path[i]) }
    for b in " --output genmon --runtime-dir ".utf8 { command.append(b) }
    command.append(contentsOf: runtimeDir)
    for b in " --click 1".utf8 { command.append(b) }
    return command
}

extension Bar where Sink == PNGFileSink {
    /// Draws once, writes the PNG, prints the genmon tags; returns the exit status.
    mutating func genmonOnce(imagePath: [UInt8], click: [UInt8]?) -> Int32 {
        cbarsys_ignore_sigpipe()
        _ = load()
        let now = nowMs()
        let current = isCurrent(now)
        draw()
        let written = panel.map { sink.showImage($0.image) } ?? EINVAL
        if written != 0 { writeFailed("sysstats-bar: cannot write the panel image ", path: imagePath, written) }
        var line: [UInt8] = []
        if current && options.blocksGiven {
            renderer.render(snapshot, nowMs: now)
            line = renderer.line.bytes
        }
        var writer = GenmonWriter()
        writer.write(snapshot: current ? snapshot : nil, message: problem ?? absentMessage, line: line,
                     image: written == 0 ? imagePath : nil, click: click)
        let err = writer.output.bytes.withUnsafeBytes { writeAll(1, $0) }
        if err != 0 { writeFailed("sysstats-bar: cannot write to stdout: ", err) }
        return err == 0 && written == 0 && current ? 0 : 1
    }
}
