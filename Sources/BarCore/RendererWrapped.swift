// The renderer's side of a wrapped i3bar program (`block = "i3bar"`): its lines fed to its
// stream, its blocks written in its place, its problems shown after them.

extension Renderer {
    /// A line of the program wrapped by block `blockIndex` (`block = "i3bar"`); true when the
    /// blocks shown changed (a complete array, or a plain-text line).
    public mutating func feedWrapped(_ blockIndex: Int, line: UnsafeRawBufferPointer) -> Bool {
        let w = wrapSlot[blockIndex]
        guard w >= 0, wrapped[w].feed(line: line) else { return false }
        let slot = commandSlot[blockIndex]
        if wrapped[w].isPlain, let spec = blocks[blockIndex].command, BarConfig.isI3status(spec.command) {
            // i3status chooses its output by its parent's name: under us, plain text unless told.
            // Its config file changed, a SIGHUP to the bar starts it again (a reload restarts
            // the blocks' programs); the hint says so, or it would stay after the fix.
            commandValues[slot].reset()
            commandValues[slot].full.append("i3status: set output_format = \"i3bar\" in its general section, then pkill -HUP sysstats-bar")
            commandValues[slot].short.append("i3status: output_format = \"i3bar\"")
            commandValues[slot].level = .warning
            return true
        }
        // It speaks again: its earlier problem is over.
        commandValues[slot].visible = false
        return true
    }

    /// True when the stream of the program wrapped by block `blockIndex` is past its opening
    /// (``I3barStream/isFlowing``): its lines may be coalesced to the newest.
    public func wrappedStreamIsFlowing(_ blockIndex: Int) -> Bool {
        let w = wrapSlot[blockIndex]
        return w >= 0 && wrapped[w].isFlowing
    }

    /// The program wrapped by block `blockIndex` starts (again): its stream begins with a header.
    public mutating func restartWrapped(_ blockIndex: Int) {
        let w = wrapSlot[blockIndex]
        guard w >= 0 else { return }
        wrapped[w].restart()
        commandValues[commandSlot[blockIndex]].visible = false
    }

    /// The stream of the program wrapped by block `blockIndex`, nil for another block.
    public func wrappedStream(_ blockIndex: Int) -> I3barStream? {
        guard blockIndex >= 0, blockIndex < wrapSlot.count, wrapSlot[blockIndex] >= 0 else { return nil }
        return wrapped[wrapSlot[blockIndex]]
    }

    /// Writes block `blockIndex`'s wrapped blocks (and its problem, if any).
    mutating func renderWrapped(_ index: Int, first: inout Bool, _ summary: inout LineSummary) {
        let w = wrapSlot[index]
        for k in 0..<wrapped[w].count {
            if output == .i3bar {
                protocolOutput.wrappedBlock(index, wrapped[w].shown[k], first: first, &line)
                summary.urgent = summary.urgent || wrapped[w].shown[k].urgent
            } else {
                value.reset()
                value.full.append(wrapped[w].shown[k].full)
                value.short.append(wrapped[w].shown[k].short)
                value.color.append(wrapped[w].shown[k].color)
                value.urgent = wrapped[w].shown[k].urgent
                summary.add(value)
                protocolOutput.block(blocks[index], value, first: first, &line)
            }
            first = false
        }
        let slot = commandSlot[index]
        if commandValues[slot].visible {
            summary.add(commandValues[slot])
            protocolOutput.block(blocks[index], commandValues[slot], first: first, &line)
            first = false
        }
    }
}
