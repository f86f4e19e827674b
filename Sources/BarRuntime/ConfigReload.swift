// The config file watched (inotify on its directory) and read again when it changes or on
// SIGHUP: a good file replaces the blocks, the theme and the command children; a bad one
// keeps them and shows why.

#if hasFeature(Embedded)
import BarCoreEmbedded
import SnapshotCodecEmbedded
#else
import BarCore
import SnapshotCodec
#endif
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
    mutating func watchIncludedFiles() {
        // Not the config file's or the runtime directory's own watch (the same folder: one watch).
        for old in includeWatches where old.watch != configWatch && old.watch != watch {
            _ = inotify_rm_watch(inotifyFD, old.watch)
        }
        includeWatches.removeAll()
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_MASK_ADD)
        for path in options.includedFiles {
            var dir = path, name: [UInt8] = []
            while let last = dir.last, last != UInt8(ascii: "/") { name.insert(last, at: 0); dir.removeLast() }
            if dir.count > 1 { dir.removeLast() }
            guard !dir.isEmpty, !name.isEmpty else { continue }
            dir.append(0)
            let wd = dir.withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { inotify_add_watch(inotifyFD, $0, mask) }
            }
            if wd >= 0 { includeWatches.append((wd, name)) }
        }
    }

    /// Whether an event of watch `wd` naming the entry at `offset` (`len` bytes) is one of the
    /// i3blocks files the config names.
    func isIncludedFile(_ wd: Int32, _ offset: Int, _ len: Int) -> Bool {
        for w in includeWatches where w.watch == wd && len >= w.name.count {
            var same = true
            for i in 0..<w.name.count where eventBuffer[offset + i] != w.name[i] { same = false; break }
            if same && (len == w.name.count || eventBuffer[offset + w.name.count] == 0) { return true }
        }
        return false
    }

    /// Watches the config file's directory for the file being written or replaced.
    mutating func addConfigWatch() {
        if includeWatches.isEmpty && !options.includedFiles.isEmpty { watchIncludedFiles() }
        guard configWatch < 0, let path = configPath else { return }
        var dir = path
        while let last = dir.last, last != UInt8(ascii: "/") { dir.removeLast() }
        if dir.count > 1 { dir.removeLast() }
        guard !dir.isEmpty else { return }
        dir.append(0)
        // IN_MASK_ADD: when the config file lives in the runtime directory, inotify returns the
        // same watch, whose mask this adds to rather than replaces.
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_MASK_ADD)
        configWatch = dir.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { inotify_add_watch(inotifyFD, $0, mask) }
        }
    }

    /// Reads the config file again: a good one replaces the blocks, the theme and the command
    /// children; a bad or missing one keeps them and shows why in a notice block.
    mutating func reloadConfig() {
        guard let path = configPath else { return }
        var included: [[UInt8]] = []
        switch loadConfig(path, explicit: true, included: &included) {
        case .none: return
        case .failed(let line):
            reportConfigMistake(line)
            configMistake = configNotice(line, path: path)
        case .loaded(let config):
            configMistake.removeAll()
            if options.blocksGiven && config.blocks != nil { reportBlocksOverride(path) }
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
            if Bar.fixedFDs + commands.children.count > fdCapacity {
                fds.deallocate()
                fdCapacity = Bar.fixedFDs + commands.children.count
                fds = .allocate(capacity: fdCapacity)
            }
            commands.startAll(nowMs: nowMs(), renderer: &renderer)
            // The snapshot was decoded for the old blocks: read it for the new ones.
            if dirChecked { _ = load() }
        }
        emit()
    }
}
