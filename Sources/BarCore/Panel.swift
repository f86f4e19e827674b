// The desktop panel's picture (outputs x11-window, png, genmon): drawn once per
// snapshot into a preallocated ``PanelImage``, never live on expose. Layout, top
// to bottom: a line of figures, the memory bar in its five parts, its legend,
// and the CPU graph of the 60-point history. Colours come from ``PanelPalette``.

#if hasFeature(Embedded)
import SnapshotCodecEmbedded
#else
import SnapshotCodec
#endif

/// The CPU graph's forms; a click on the panel cycles them.
public enum GraphForm: UInt8, Sendable, CaseIterable {
    /// One bar per history point.
    case bars
    /// Filled area; stacked busy/iowait where the iowait share is known.
    case area
    /// No graph: the current figures, large.
    case numbers

    /// The next form, wrapping around.
    public var next: GraphForm { GraphForm(rawValue: (rawValue + 1) % 3)! }
    /// The previous form, wrapping around.
    public var previous: GraphForm { GraphForm(rawValue: (rawValue + 2) % 3)! }
}

/// The panel's colours, 0x00RRGGBB; docs/renderer.md lists them.
public enum PanelPalette {
    public static let background: PanelColor = 0x1E2127
    public static let frame: PanelColor = 0x3E4451
    public static let text: PanelColor = 0xDCDFE4
    public static let dimText: PanelColor = 0x8B929E
    public static let critical: PanelColor = 0xE06C75
    public static let warning: PanelColor = 0xE5C07B
    /// Memory parts, in the bar's order.
    public static let memWired: PanelColor = 0xE06C75
    public static let memActive: PanelColor = 0xE5C07B
    public static let memInactive: PanelColor = 0x61AFEF
    public static let memOther: PanelColor = 0xC678DD
    public static let memFree: PanelColor = 0x4B5263
    /// CPU graph.
    public static let cpuBusy: PanelColor = 0x98C379
    public static let cpuIOWait: PanelColor = 0xD19A66
}

/// Draws snapshots into one image of a fixed size, reusing all of its storage.
public struct PanelRenderer {
    /// The picture; redrawn by ``render(_:nowMs:)`` and ``renderMessage(_:)``.
    public private(set) var image: PanelImage
    /// The CPU graph's form; ``click(button:)`` changes it.
    public var graphForm: GraphForm = .bars
    /// Increases by one on every redraw: a sink may skip a sequence it has shown.
    public private(set) var sequence: UInt64 = 0
    /// Scratch for figures drawn as text, reserved once.
    var scratch = ByteWriter(capacity: 128)

    /// Allocates the image (`width`×`height`, clamped to at least 1×1) and its scratch space.
    public init(width: Int = PanelImage.defaultWidth, height: Int = PanelImage.defaultHeight) {
        image = PanelImage(width: width, height: height, color: PanelPalette.background)
    }

    /// Applies a click: button 1 shows the next graph form, button 3 the previous one.
    /// Returns true when the picture changes (the caller redraws).
    @discardableResult
    public mutating func click(button: Int) -> Bool {
        switch button {
        case 1: graphForm = graphForm.next; return true
        case 3: graphForm = graphForm.previous; return true
        default: return false
        }
    }

    /// The layout for the image's size: rows from top to bottom.
    struct Layout {
        var textY: Int
        var barY: Int, barHeight: Int
        /// -1 when there is no room for the legend.
        var legendY: Int
        var graphY: Int, graphHeight: Int
        var left: Int, right: Int

        init(width: Int, height: Int) {
            left = 2
            right = width - 2
            textY = 1
            barY = textY + PanelFont.cellHeight + 1
            barHeight = max(3, height / 9)
            let afterBar = barY + barHeight + 2
            // The legend only when the graph keeps at least a font's height.
            if height - (afterBar + PanelFont.cellHeight + 1) >= PanelFont.cellHeight + 2 {
                legendY = afterBar
                graphY = afterBar + PanelFont.cellHeight + 1
            } else {
                legendY = -1
                graphY = afterBar
            }
            graphHeight = max(0, height - 1 - graphY)
        }
    }

    /// Draws `snap` as seen at `nowMs` (realtime ms; the caller decides staleness).
    public mutating func render(_ snap: Snapshot, nowMs: UInt64) {
        sequence &+= 1
        image.clear(PanelPalette.background)
        let layout = Layout(width: image.width, height: image.height)
        drawHeadline(snap, layout)
        drawMemoryBar(snap.memory, layout)
        if layout.legendY >= 0 { drawLegend(layout) }
        switch graphForm {
        case .bars: drawGraph(snap, layout, area: false)
        case .area: drawGraph(snap, layout, area: true)
        case .numbers: drawBigNumbers(snap, layout)
        }
    }

    /// Draws a message instead of the figures (no snapshot, or a stale one).
    public mutating func renderMessage(_ text: StaticString) {
        sequence &+= 1
        image.clear(PanelPalette.background)
        let textWidth = text.utf8CodeUnitCount * PanelFont.cellWidth
        let x = max(2, (image.width - textWidth) / 2)
        let y = max(0, (image.height - PanelFont.cellHeight) / 2)
        image.stroke(PanelRect(x: 0, y: 0, width: image.width, height: image.height), PanelPalette.critical)
        image.drawText(text, x: x, y: y, color: PanelPalette.critical)
    }

    /// `CPU 12%  L 0.52` on the left, `3.2G/15.5G` on the right.
    mutating func drawHeadline(_ snap: Snapshot, _ l: Layout) {
        scratch.reset()
        scratch.append("CPU ")
        scratch.appendPercent(permyriad: UInt64(snap.cpuBusy))
        scratch.append("  L ")
        scratch.appendFixed(UInt64(snap.load1), scaleDigits: 2, fractionDigits: 2)
        let cpuColor = snap.cpuBusy >= 9000 ? PanelPalette.critical : (snap.cpuBusy >= 7000 ? PanelPalette.warning : PanelPalette.text)
        let end = image.drawText(scratch.bytes, x: l.left, y: l.textY, color: cpuColor)
        scratch.reset()
        scratch.appendSize(kib: snap.memory.used)
        scratch.append(UInt8(ascii: "/"))
        scratch.appendSize(kib: snap.memory.total)
        let w = scratch.count * PanelFont.cellWidth
        let x = max(end + PanelFont.cellWidth, l.right - w + 1)
        let memColor = snap.urgent.contains(.memoryLow) || snap.urgent.contains(.memoryPressure) ? PanelPalette.critical : PanelPalette.text
        _ = image.drawText(scratch.bytes, x: x, y: l.textY, color: memColor)
    }

    /// The five parts in proportion (wired, active, inactive, other, free), framed.
    mutating func drawMemoryBar(_ m: MemoryFigures, _ l: Layout) {
        let width = l.right - l.left
        image.fill(PanelRect(x: l.left, y: l.barY, width: width, height: l.barHeight), PanelPalette.memFree)
        guard m.total > 0, width > 0 else { return }
        let total = m.total
        // Cumulative edges, so that rounding never leaves a gap or overflows the bar.
        var sum: UInt64 = 0
        var x = l.left
        func part(_ kib: UInt64, _ color: PanelColor, _ image: inout PanelImage) {
            sum &+= kib
            let end = l.left + Int(min(sum, total) * UInt64(width) / total)
            image.fill(PanelRect(x: x, y: l.barY, width: end - x, height: l.barHeight), color)
            x = end
        }
        part(m.wired, PanelPalette.memWired, &image)
        part(m.active, PanelPalette.memActive, &image)
        part(m.inactive, PanelPalette.memInactive, &image)
        part(m.other, PanelPalette.memOther, &image)
    }

    /// Small squares with letters: W A I O F.
    mutating func drawLegend(_ l: Layout) {
        let entries: (StaticString, StaticString, StaticString, StaticString, StaticString) = ("W", "A", "I", "O", "F")
        let colors = (PanelPalette.memWired, PanelPalette.memActive, PanelPalette.memInactive, PanelPalette.memOther, PanelPalette.memFree)
        let step = max(3 * PanelFont.cellWidth, (l.right - l.left) / 5)
        for i in 0..<5 {
            let x = l.left + i * step
            let color: PanelColor
            let label: StaticString
            switch i {
            case 0: color = colors.0; label = entries.0
            case 1: color = colors.1; label = entries.1
            case 2: color = colors.2; label = entries.2
            case 3: color = colors.3; label = entries.3
            default: color = colors.4; label = entries.4
            }
            image.fill(PanelRect(x: x, y: l.legendY + 1, width: 5, height: 5), color)
            _ = image.drawText(label, x: x + 7, y: l.legendY, color: PanelPalette.dimText)
        }
    }

    /// The 60-point history, oldest on the left, newest at the right edge.
    mutating func drawGraph(_ snap: Snapshot, _ l: Layout, area: Bool) {
        let width = l.right - l.left
        let h = l.graphHeight
        guard h > 2, width > 2 else { return }
        image.stroke(PanelRect(x: l.left, y: l.graphY, width: width, height: h), PanelPalette.frame)
        let inner = PanelRect(x: l.left + 1, y: l.graphY + 1, width: width - 2, height: h - 2)
        let slots = Snapshot.historyLength
        let history = snap.cpuHistory
        let count = min(history.count, slots)
        let first = history.count - count
        for slot in 0..<slots {
            // Right-aligned: a short history fills the newest slots.
            let index = slot - (slots - count)
            guard index >= 0 else { continue }
            let value = min(UInt64(history[first + index]), 10_000)
            let x0 = inner.x + slot * inner.width / slots
            var x1 = inner.x + (slot + 1) * inner.width / slots
            if !area && x1 - x0 > 1 { x1 -= 1 }   // a gap between bars
            let barHeight = Int((value * UInt64(inner.height) + 5_000) / 10_000)
            image.fill(PanelRect(x: x0, y: inner.y + inner.height - barHeight, width: x1 - x0, height: barHeight),
                       PanelPalette.cpuBusy)
            // The iowait share is known only for the newest point: stacked on top of it.
            if area && index == count - 1 && snap.cpuIOWait > 0 {
                let io = Int((min(UInt64(snap.cpuIOWait), 10_000) * UInt64(inner.height) + 5_000) / 10_000)
                image.fill(PanelRect(x: x0, y: inner.y + inner.height - barHeight - io, width: x1 - x0, height: io),
                           PanelPalette.cpuIOWait)
            }
        }
    }

    /// The current CPU and memory shares, twice the font's size, instead of the graph.
    mutating func drawBigNumbers(_ snap: Snapshot, _ l: Layout) {
        let scale = l.graphHeight >= 2 * PanelFont.cellHeight ? 2 : 1
        let y = l.graphY + max(0, (l.graphHeight - PanelFont.cellHeight * scale) / 2)
        scratch.reset()
        scratch.appendPercent(permyriad: UInt64(snap.cpuBusy))
        let end = image.drawText(scratch.bytes, x: l.left, y: y, color: PanelPalette.cpuBusy, scale: scale)
        scratch.reset()
        let m = snap.memory
        let share = m.total > 0 ? min(m.used, m.total) * 10_000 / m.total : 0
        scratch.appendPercent(permyriad: share)
        let x = max(end + PanelFont.cellWidth * scale, l.right - scratch.count * PanelFont.cellWidth * scale + 1)
        _ = image.drawText(scratch.bytes, x: x, y: y, color: PanelPalette.memActive, scale: scale)
    }
}
