// The config file for the renderer: where it is, reading it (a regular file, followed if a
// symbolic link — dotfiles managers link it —, O_NONBLOCK, at most 64 KiB, refused unless
// only the user or root could have written it: its commands run) and checking it (BarCore's
// BarConfig). At start a bad file is a bad command line; later, a reload
// that fails keeps the running configuration and shows why (EventLoop.swift).

import BarCore
import CBarSys
import CTrustedFile

/// What loading the config file gave.
enum ConfigLoad {
    /// No file at the default place: the built-in defaults.
    case none
    case loaded(BarConfig)
    /// One line, `FILE:LINE:COL: reason` or `FILE: reason`.
    case failed([UInt8])
}

/// The config file's path for `options` and the environment, without a NUL; nil without a home.
func configFilePath(_ options: BarOptions) -> [UInt8]? {
    configPath(option: options.configPath,
               xdgConfigHome: getenv("XDG_CONFIG_HOME").map { cStringBytes($0) },
               home: getenv("HOME").map { cStringBytes($0) })
}

/// Reads and checks the file at `path` (no NUL). A missing file is `.none` unless `explicit`
/// (given with `--config`). Its `block = "i3blocks"` entries are replaced by their files'
/// sections; `included` gets those files' paths (to watch them).
func loadConfig(_ path: [UInt8], explicit: Bool, included: inout [[UInt8]]) -> ConfigLoad {
    func failure(_ file: [UInt8], _ reason: [UInt8]) -> ConfigLoad {
        var line = file
        line.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        line.append(contentsOf: reason)
        return .failed(line)
    }
    let read = readTrustedFile(path, limit: 65_536, limitText: "larger than 64 KiB")
    guard let bytes = read.bytes else {
        if read.missing && !explicit { return .none }
        return failure(path, read.reason)
    }
    let parsed = bytes.withUnsafeBytes { BarConfig.parse($0) }
    switch parsed {
    case .failure(let error):
        var line: [UInt8] = []
        error.describe(file: path, into: &line)
        return .failed(line)
    case .success(let config):
        included.removeAll()
        var problems: [IncludedFileError] = []
        let expanded = config.expandingI3blocksFiles(problems: &problems) { written in
            let resolved = resolveIncludedPath(written, relativeTo: path)
            included.append(resolved)
            let file = readTrustedFile(resolved, limit: I3blocksImport.maximumFileSize, limitText: "larger than 32 KiB")
            return (resolved, file.bytes, file.reason)
        }
        // An i3blocks file that cannot be read or parsed is a block in its place (the others
        // stay), and said on stderr as a config mistake is.
        for problem in problems {
            var line: [UInt8] = []
            problem.error.describe(file: problem.file, into: &line)
            reportConfigMistake(line)
        }
        switch expanded {
        case .success(let full): return .loaded(full)
        case .failure(let e):
            var line: [UInt8] = []
            e.error.describe(file: e.file.isEmpty ? path : e.file, into: &line)
            return .failed(line)
        }
    }
}

/// Whether `path` (no NUL), followed if a link, is the null device (stat(2), not the name):
/// a config there is no file to watch, since every write to it anywhere would be a change.
func namesNullDevice(_ path: [UInt8]) -> Bool {
    var cPath = path
    cPath.append(0)
    return cPath.withUnsafeBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_names_null_device($0) != 0 }
    }
}

/// `~/…` from $HOME, a relative path from the config file's folder, an absolute one as it is.
func resolveIncludedPath(_ written: [UInt8], relativeTo config: [UInt8]) -> [UInt8] {
    if written.count >= 2, written[0] == UInt8(ascii: "~"), written[1] == UInt8(ascii: "/"),
       let home = getenv("HOME").map({ cStringBytes($0) }), !home.isEmpty {
        return home + written[1...]
    }
    if written.first == UInt8(ascii: "/") { return written }
    var folder = config
    while let last = folder.last, last != UInt8(ascii: "/") { folder.removeLast() }
    return folder + written
}

/// A user file as the bar reads one: a regular file (followed if a link), O_NONBLOCK, at
/// most `limit` bytes, refused unless only the user or root could have written it (its
/// commands run). The bytes, or the reason (one line) and whether it is simply missing.
/// The null device reads as an empty file: `--config /dev/null` is the common way to say
/// "no config at all" (`i3status -c /dev/null`), and no one can have written anything it gives.
func readTrustedFile(_ path: [UInt8], limit: Int, limitText: StaticString) -> (bytes: [UInt8]?, reason: [UInt8], missing: Bool) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit + 1, alignment: 1)
    defer { buffer.deallocate() }
    var cPath = path
    cPath.append(0)
    func text(_ s: StaticString) -> [UInt8] { Array(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount)) }
    let fd: Int32 = cPath.withUnsafeBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_open_regular_follow($0) }
    }
    if fd == CBARSYS_NULL_DEVICE { return ([], [], false) }
    var n = fd == CBARSYS_NOT_REGULAR ? notRegularFile : -Int(cbarsys_errno())
    if fd >= 0 {
        let trust = cPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { trusted_file_check($0, fd) }
        }
        guard trust == Int32(TRUSTED_FILE_OK) else {
            _ = close(fd)
            let reason = trusted_file_reason(trust)!
            let count = Int(strlen(reason))
            return (nil, reason.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }, false)
        }
        n = readWhole(fd, into: buffer, positioned: false)
        _ = close(fd)
    }
    if n == notRegularFile { return (nil, text("not a regular file"), false) }
    if n == -Int(ENOENT) || n == -Int(ENOTDIR) { return (nil, text("no such file"), true) }
    if n < 0 { return (nil, text("cannot read it"), false) }
    if n > limit { return (nil, text(limitText), false) }
    return (Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n])), [], false)
}
