// The config file for the renderer: where it is, reading it (a regular file, followed if a
// symbolic link — dotfiles managers link it —, O_NONBLOCK, at most 64 KiB) and checking
// it (BarCore's BarConfig). At start a bad file is a bad command line; later, a reload
// that fails keeps the running configuration and shows why (EventLoop.swift).

import BarCoreEmbedded
import CBarSys

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
/// (given with `--config`).
func loadConfig(_ path: [UInt8], explicit: Bool) -> ConfigLoad {
    let limit = 65_536
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit + 1, alignment: 1)
    defer { buffer.deallocate() }
    var cPath = path
    cPath.append(0)
    let n = readFile(cPath, into: buffer, followSymlink: true)
    func failure(_ text: StaticString) -> ConfigLoad {
        var line = path
        line.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        for i in 0..<text.utf8CodeUnitCount { line.append(text.utf8Start[i]) }
        return .failed(line)
    }
    if n == notRegularFile { return failure("not a regular file") }
    if n == -Int(ENOENT) || n == -Int(ENOTDIR) { return explicit ? failure("no such file") : .none }
    if n < 0 { return failure("cannot read it") }
    if n > limit { return failure("larger than 64 KiB") }
    switch BarConfig.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) {
    case .success(let config): return .loaded(config)
    case .failure(let error):
        var line: [UInt8] = []
        error.describe(file: path, into: &line)
        return .failed(line)
    }
}
