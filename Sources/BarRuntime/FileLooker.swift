// The file blocks' look at the file system (run_watch, path_exists, read_file: i3status's
// small modules), taken before an update is drawn, at most once a second: each block costs
// a pid file (or the few a pattern matches) read and kill(2), one stat(2), or one open and
// read of at most 255 bytes. Each snapshot brings an update, so the blocks follow the files at the sampler's
// pace; the sampler has no part in them. The blocks (BarCore) format what is found and make
// no system call. The paths are the user's own config's, what the files hold is anyone's:
// a pid file must be a regular file and no link, a read file a regular file, neither opened
// when it is a FIFO or a device, both without blocking and only their first bytes read; a
// pattern's directory is read 4096 entries deep at most (CBarSys/looks.c).

import BarCore
import CBarSys

/// Where the file blocks' looks are taken: buffers allocated at the first look, reused.
struct FileLooker {
    /// The path looked at, NUL-terminated: the argument, a leading `~/` made `$HOME/`.
    private var path = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// A read file's first bytes.
    private var read = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// `$HOME`, for a pid file or read file path that starts with `~/`, as i3status expands
    /// them (glob(3)'s GLOB_TILDE, its resolve_tilde).
    private var home: [UInt8] = []

    /// Room for a path: the longest argument and a home directory.
    static let pathCapacity = 8192

    /// How often the looks are taken at most: once a second, i3status's interval, give or
    /// take the snapshots' own jitter (a snapshot 990 ms after the last is looked for).
    static let spacingMs: UInt64 = 900

    private mutating func prepare() {
        guard read.count == 0 else { return }
        path = .allocate(capacity: Self.pathCapacity)
        read = .allocate(byteCount: FileLook.maximumContent, alignment: 8)
        if let h = getenv("HOME") { home = cStringBytes(h) }
    }

    /// Writes `argument` and a NUL into ``path``, a leading `~` (alone or before `/`) as
    /// `$HOME` when `tilde`; false when it does not fit.
    private mutating func setPath(_ argument: [UInt8], tilde: Bool) -> Bool {
        prepare()
        var n = 0, start = 0
        if tilde, !home.isEmpty, argument.first == UInt8(ascii: "~"), argument.count == 1 || argument[1] == UInt8(ascii: "/") {
            guard home.count < path.count else { return false }
            for b in home { path[n] = b; n += 1 }
            start = 1
        }
        guard n + argument.count - start < path.count else { return false }
        for i in start..<argument.count { path[n] = argument[i]; n += 1 }
        path[n] = 0
        return true
    }

    /// run_watch: whether a process its pid file names runs, as i3status's process_runs():
    /// the file `pattern` names, or any its file name's wildcards match, read for a pid, and
    /// that process asked for (`cbarsys_process_runs`, CBarSys/looks.c).
    mutating func processRuns(_ pattern: [UInt8]) -> Bool {
        guard setPath(pattern, tilde: true) else { return false }
        let p = path
        return p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_process_runs($0) } != 0
    }

    /// path_exists: whether `argument` is there (stat(2), a link followed, no `~`: i3status
    /// takes the path as it is).
    mutating func pathExists(_ argument: [UInt8]) -> Bool {
        guard setPath(argument, tilde: false) else { return false }
        let p = path
        return p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_path_exists($0) } != 0
    }

    /// read_file: the first ``FileLook/maximumContent`` bytes of the file `argument` names (a
    /// link followed, as i3status's open follows it), or why it cannot be read (an errno).
    mutating func firstBytes(_ argument: [UInt8]) -> (bytes: UnsafeRawBufferPointer, errno: Int32) {
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        guard setPath(argument, tilde: true) else { return (none, ENAMETOOLONG) }
        let p = path, r = read
        let fd = p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { cbarsys_open_readable($0) }
        guard fd >= 0 else { return (none, -fd) }
        let n = readWhole(fd, into: r, positioned: false)
        _ = close(fd)
        guard n >= 0 else { return (none, Int32(-n)) }
        return (UnsafeRawBufferPointer(start: r.baseAddress, count: n), 0)
    }
}

extension Bar {
    /// Takes the file blocks' looks for the update about to be drawn, unless they were
    /// taken within ``FileLooker/spacingMs`` (command output can ask for twenty updates a
    /// second; the files are looked at once). A renderer made afresh (a reload) looks at once.
    mutating func lookAtFiles() {
        guard renderer.fileLooks.any else { return }
        let now = UInt64(cbarsys_monotonic_ms())
        let taken = renderer.fileLooks.takenMs
        if taken != 0 && now >= taken && now - taken < FileLooker.spacingMs { return }
        renderer.fileLooks.takenMs = max(now, 1)
        for i in 0..<renderer.blocks.count {
            let block = renderer.blocks[i]
            guard let check = block.kind.fileCheck, !block.argument.isEmpty else { continue }
            switch check {
            case .process:
                let runs = looker.processRuns(block.argument)
                renderer.fileLooks.set(i, good: runs)
            case .exists:
                let there = looker.pathExists(block.argument)
                renderer.fileLooks.set(i, good: there)
            case .firstLine:
                let (bytes, error) = looker.firstBytes(block.argument)
                if error == 0 {
                    renderer.fileLooks.setContent(i, bytes)
                } else if let text = strerror(error) {
                    renderer.fileLooks.setError(i, errno: error, text: UnsafeRawBufferPointer(start: text, count: strlen(text)))
                } else {
                    renderer.fileLooks.setError(i, errno: error, text: UnsafeRawBufferPointer(start: nil, count: 0))
                }
            }
        }
    }
}
