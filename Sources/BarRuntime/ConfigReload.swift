// The config file watched (inotify on its directory) and read again when it changes or on
// SIGHUP: a good file replaces the blocks, the theme and the command children; a bad one
// keeps them and shows why.

import BarCore
import SnapshotCodec
import CBarSys

extension Bar {
    /// True when the event name at `offset` (NUL-padded, `len` bytes) is the config file's.
    func isConfigName(_ offset: Int, _ len: Int) -> Bool {
        guard let path = configPath else { return false }
        var start = path.count
        while start > 0 && path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        let count = path.count - start
        guard len >= count, count > 0 else { return false }
        for i in 0..<count where eventBuffer[offset + i] != path[start + i] { return false }
        return len == count || eventBuffer[offset + count] == 0
    }

    /// Watches the folder of each i3blocks file the config names (`options.includedFiles`),
    /// dropping the watches of files it no longer names.
    /// A folder whose missing parts are awaited (its nearest existing ancestor watched for
    /// the next one) reloads the config when that part appears, which watches deeper.
    mutating func watchIncludedFiles() {
        // The new watches first: a folder still named keeps its watch (inotify gives the same
        // one back), so an edit made while the config reloads is not lost between a removal
        // and a new watch (whose number would differ from the queued event's).
        let old = includeWatches
        includeWatches.removeAll()
        for path in options.includedFiles {
            let (dir, name) = splitLast(path)
            guard !dir.isEmpty, !name.isEmpty, !namesNullDevice(path) else { continue }
            let (wd, next, _) = watchNearest(dir)
            if wd >= 0 { includeWatches.append((wd, next.isEmpty ? name : next)) }
        }
        // Not the config file's or the runtime directory's own watch (the same folder: one watch).
        for gone in old where gone.watch != configWatch && gone.watch != watch && !includeWatches.contains(where: { $0.watch == gone.watch }) {
            _ = inotify_rm_watch(inotifyFD, gone.watch)
        }
    }

    /// `path`'s folder (`/` for a file at the root; empty without a `/`) and its last name.
    func splitLast(_ path: [UInt8]) -> (folder: [UInt8], name: [UInt8]) {
        var start = path.count
        while start > 0 && path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        let folderEnd = start > 1 ? start - 1 : start
        return (Array(path[..<folderEnd]), Array(path[start...]))
    }

    /// Watches `folder` (no NUL) for a file in it being written, created or renamed into
    /// place; when it does not exist, its nearest existing ancestor for the next folder on the
    /// way being created or renamed into place. The watch (-1: none, not even `/`) and that
    /// next folder's name (empty: `folder` itself is watched), and the folder watched.
    /// IN_MASK_ADD: a folder watched already (the runtime directory) keeps its watch, whose
    /// mask this adds to.
    func watchNearest(_ folder: [UInt8]) -> (watch: Int32, next: [UInt8], watched: [UInt8]) {
        // Removed or renamed away too: the built-in defaults then apply at once.
        let fileMask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
            | UInt32(IN_MOVED_FROM) | UInt32(IN_MASK_ADD)
        let folderMask = UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_MASK_ADD) | UInt32(IN_ONLYDIR)
        var dir = folder, next: [UInt8] = []
        while !dir.isEmpty {
            var path = dir
            path.append(0)
            let mask = next.isEmpty ? fileMask : folderMask
            let wd = path.withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { inotify_add_watch(inotifyFD, $0, mask) }
            }
            if wd >= 0 { return (wd, next, dir) }
            guard dir.count > 1 else { break }
            (dir, next) = splitLast(dir)
            // A component of `.` or `..` is not one a creation names: give up rather than wait.
            if next.isEmpty || next == [0x2E] || next == [0x2E, 0x2E] { break }
        }
        return (-1, [], [])
    }

    /// Removes watch `wd` unless the runtime directory or an i3blocks file shares it.
    func releaseWatch(_ wd: Int32) {
        guard wd >= 0, wd != watch, !includeWatches.contains(where: { $0.watch == wd }) else { return }
        _ = inotify_rm_watch(inotifyFD, wd)
    }

    /// Whether an event of watch `wd` naming the entry at `offset` (`len` bytes) is one of the
    /// i3blocks files the config names.
    func isIncludedFile(_ wd: Int32, _ offset: Int, _ len: Int) -> Bool {
        includeWatches.contains { $0.watch == wd && isEventName($0.name, offset, len) }
    }

    /// Watches the config file's folder for the file being written or replaced; while that
    /// folder does not exist (a new user's `~/.config/sysstats` when the session starts), its
    /// nearest existing ancestor for the next folder on the way (``configWatchNext``),
    /// followed down as the folders appear (``followConfigFolder()``). The null device
    /// (`--config /dev/null`: no config) is not watched: its folder is /dev, and every write
    /// to it on the machine would read the config again.
    mutating func addConfigWatch() {
        if includeWatches.isEmpty && !options.includedFiles.isEmpty { watchIncludedFiles() }
        guard configWatch < 0, let path = configPath, !namesNullDevice(path) else { return }
        let dir = splitLast(path).folder
        guard !dir.isEmpty else { return }
        // A folder made on the way after its own watch was tried but before its parent's was
        // added sends that watch no event: try again while the awaited folder is there.
        for _ in 0..<8 {
            var watched: [UInt8]
            (configWatch, configWatchNext, watched) = watchNearest(dir)
            guard configWatch >= 0, !configWatchNext.isEmpty else { return }
            if watched.last != UInt8(ascii: "/") { watched.append(UInt8(ascii: "/")) }
            guard exists(watched + configWatchNext) else { return }
            releaseWatch(configWatch)
            configWatch = -1
        }
        (configWatch, configWatchNext, _) = watchNearest(dir)
    }

    /// True when something is at `path` (no NUL).
    func exists(_ path: [UInt8]) -> Bool {
        var p = path
        p.append(0)
        return p.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { access($0, F_OK) == 0 }
        }
    }

    /// Watches again, as deep as the folders now go, after the folder the config's watch
    /// waited for appeared or the watched one went. True when the config's own folder is now
    /// watched and the file is there: it may have been written before the watch, so read it.
    mutating func followConfigFolder() -> Bool {
        releaseWatch(configWatch)
        configWatch = -1
        addConfigWatch()
        guard configWatch >= 0, configWatchNext.isEmpty, let path = configPath else { return false }
        return exists(path)
    }

    /// True when the event name at `offset` (NUL-padded, `len` bytes) is `name`.
    func isEventName(_ name: [UInt8], _ offset: Int, _ len: Int) -> Bool {
        guard !name.isEmpty, len >= name.count else { return false }
        for i in 0..<name.count where eventBuffer[offset + i] != name[i] { return false }
        return len == name.count || eventBuffer[offset + name.count] == 0
    }

    /// Reads the config file again: a good one replaces the blocks, the theme and the command
    /// children; a bad one keeps them and shows why in a notice block. The file at the default
    /// place removed: the built-in defaults, at once, as at a start without it (a file named
    /// with `--config` must be there: its absence is a mistake like any other).
    mutating func reloadConfig() {
        guard let path = configPath else { return }
        var included: [[UInt8]] = []
        switch loadConfig(path, explicit: options.configPath != nil, included: &included) {
        case .none:
            configMistake.removeAll()
            var defaults = BarConfig()
            defaults.blocks = BarBlock.defaults
            apply(defaults, included: [])
        case .failed(let line):
            reportConfigMistake(line)
            configMistake = configNotice(line, path: path)
        case .loaded(let config):
            configMistake.removeAll()
            if options.blocksGiven && config.blocks != nil { reportBlocksOverride(path) }
            apply(config, included: included)
        }
        emit()
    }

    /// Replaces the blocks, the theme and the command children with `config`'s.
    private mutating func apply(_ config: BarConfig, included: [[UInt8]]) {
        var o = options.applying(config)
        o.includedFiles = included
        var fresh = Renderer(output: o.output, blocks: o.blocks, formats: o.formats, theme: o.theme, streaming: !o.once)
        fresh.memForm = renderer.memForm
        fresh.continueStream()
        commands.stopAll(into: &stopping, nowMs: nowMs())
        commands.deallocate()
        options = o
        watchIncludedFiles()
        renderer = fresh
        if dirChecked { registerWants() }
        commands = CommandRunner(blocks: renderer.blocks)
        if Bar.fixedFDs + commands.pollSlots > fdCapacity {
            fds.deallocate()
            fdCapacity = Bar.fixedFDs + commands.pollSlots
            fds = .allocate(capacity: fdCapacity)
        }
        commands.startAll(nowMs: nowMs(), renderer: &renderer)
        // The snapshot was decoded for the old blocks: read it for the new ones.
        if dirChecked { _ = load() }
    }
}
