// The config file for the renderer: where it is, reading it (a regular file, followed if a
// symbolic link — dotfiles managers link it —, O_NONBLOCK, at most 64 KiB, refused unless
// only the user or root could have written it: its commands run) and checking it (BarCore's
// BarConfig). At start a bad file is a bad command line; later, a reload
// that fails keeps the running configuration and shows why (EventLoop.swift).

#if hasFeature(Embedded)
import BarCoreEmbedded
#else
import BarCore
#endif
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
/// (given with `--config`).
func loadConfig(_ path: [UInt8], explicit: Bool) -> ConfigLoad {
    let limit = 65_536
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit + 1, alignment: 1)
    defer { buffer.deallocate() }
    var cPath = path
    cPath.append(0)
    func failure(_ text: UnsafePointer<UInt8>, _ count: Int) -> ConfigLoad {
        var line = path
        line.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
        for i in 0..<count { line.append(text[i]) }
        return .failed(line)
    }
    func failure(_ text: StaticString) -> ConfigLoad { failure(text.utf8Start, text.utf8CodeUnitCount) }
    let fd: Int32 = cPath.withUnsafeBufferPointer { p in
        p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_open_regular_follow($0) }
    }
    var n = fd == CBARSYS_NOT_REGULAR ? notRegularFile : -Int(cbarsys_errno())
    if fd >= 0 {
        let trust = cPath.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { trusted_file_check($0, fd) }
        }
        guard trust == Int32(TRUSTED_FILE_OK) else {
            _ = close(fd)
            let reason = trusted_file_reason(trust)!
            return reason.withMemoryRebound(to: UInt8.self, capacity: Int(strlen(reason))) { failure($0, Int(strlen(reason))) }
        }
        n = readWhole(fd, into: buffer, positioned: false)
        _ = close(fd)
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
