// The desktop panel's picture (outputs x11-window, png, genmon): drawn once per
// snapshot into a preallocated ``PanelImage``, never live on expose. Layout, top
// to bottom: a line of figures, the memory bar in its five parts, its legend,
// and the CPU graph of the 60-point history. Colours come from ``PanelPalette``.

import SnapshotCodec

/// The CPU graph's forms; a click on the panel cycles them.
public enum GraphForm: UInt8, Sendable, CaseIterable {
    /// One bar per history point: iowait at the bottom, busy stacked on it.
    case bars
    /// Two stacked filled areas, each under its line: iowait at the bottom, busy on it.
    case area
    /// No graph: the current figures, large.
    case numbers
    /// The network rate history: bytes received as bars, bytes sent as a line over them,
    /// scaled to the largest point shown; the current rates written in its corner.
    case network

    /// The next form, wrapping around.
    public var next: GraphForm { GraphForm(rawValue: (rawValue + 1) % 4)! }
    /// The previous form, wrapping around.
    public var previous: GraphForm { GraphForm(rawValue: (rawValue + 3) % 4)! }
}

/// The panel's colours, 0x00RRGGBB; docs/renderer.md lists them.
public enum PanelPalette {
    /// The image's background.
    public static let background: PanelColor = 0x1E2127
    /// The graph's frame and its 50 % line.
    public static let frame: PanelColor = 0x3E4451
    /// Figures, and the dimmer labels (legend, `cpu`, `mem`).
    public static let text: PanelColor = 0xDCDFE4
    public static let dimText: PanelColor = 0x8B929E
    /// Figures past their thresholds (the text outputs' i3bar colours), and the stale message.
    public static let critical: PanelColor = 0xE06C75
    public static let warning: PanelColor = 0xE5C07B
    /// Memory parts, in the bar's order.
    public static let memWired: PanelColor = 0xE06C75
    public static let memActive: PanelColor = 0xE5C07B
    public static let memInactive: PanelColor = 0x61AFEF
    public static let memOther: PanelColor = 0xC678DD
    public static let memFree: PanelColor = 0x4B5263
    /// CPU graph: busy (bars, the area's top line) and iowait (its bars, its area's
    /// line, the iowait figure).
    public static let cpuBusy: PanelColor = 0x98C379
    public static let cpuIOWait: PanelColor = 0xD19A66
    /// The area form's fills, dimmed so that each layer's line stands out: busy (its
    /// line is ``cpuBusy``) and iowait under it (its line is ``cpuIOWait``).
    public static let cpuArea: PanelColor = 0x4A6340
    public static let cpuIOWaitArea: PanelColor = 0x6E5743
    /// Network graph: received (bars) and sent (the line).
    public static let netRx: PanelColor = 0x56B6C2
    public static let netTx: PanelColor = 0xC678DD
}

/// Draws snapshots into one image of a fixed size, reusing all of its storage.
public struct PanelRenderer {
    /// The picture; redrawn by ``render(_:nowMs:)`` and ``renderMessage(_:)``. Set within the
    /// module: parts of the picture are drawn from files of their own (PanelLegend.swift).
    public internal(set) var image: PanelImage
    /// The CPU graph's form; ``click(button:)`` changes it.
    public var graphForm: GraphForm = .bars
    /// Increases by one on every redraw: a sink may skip a sequence it has shown.
    public private(set) var sequence: UInt64 = 0
    /// Scratch for figures drawn as text, reserved once.
    var scratch = ByteWriter(capacity: 128)

    /// The parts a picture asks the sampler to measure every interval: all but the sound
    /// devices', which it does not draw and whose helper the sampler would start for nothing.
    public static let partsShown: SnapshotSections = ListedPart.all.reduce(SnapshotSections.all) {
        $1.sound == nil ? $0 : $0.subtracting($1.part)
    }

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

    /// The layout for the image's size: rows from top to bottom. Text, margins and the
    /// legend grow in whole steps with the size (`scale`: 1 up to twice 180×56, and so on);
    /// the bar and the graph take the height left.
    struct Layout {
        /// Font scale for the headline, the legend and labels.
        var scale: Int
        var textY: Int
        var barY: Int, barHeight: Int
        /// -1 when there is no room for the legend.
        var legendY: Int
        /// How the legend shows the parts, for the room this size leaves.
        var legendForm: LegendForm
        var graphY: Int, graphHeight: Int
        var left: Int, right: Int
        /// Line height of text at ``scale``.
        var line: Int { PanelFont.cellHeight * scale }
        /// Advance of one character at ``scale``.
        var advance: Int { PanelFont.cellWidth * scale }

        init(width: Int, height: Int) {
            scale = max(1, min(height / PanelImage.defaultHeight, width / PanelImage.defaultWidth))
            left = 2 * scale
            right = width - 2 * scale
            textY = scale
            let line = PanelFont.cellHeight * scale
            barY = textY + line + scale
            barHeight = max(3, height / 9)
            let afterBar = barY + barHeight + 2 * scale
            // The legend's names take a second row below 387 pixels a scale (the default
            // size included): only while the graph keeps two lines' height.
            let twoRows = height - (afterBar + 2 * line + scale) >= 2 * line + 2
            legendForm = LegendForm(span: right - left, scale: scale, twoRows: twoRows)
            // The legend only when the graph keeps at least a line's height.
            if height - (afterBar + line + scale) >= line + 2 {
                legendY = afterBar
                graphY = afterBar + legendForm.rows * line + scale
            } else {
                legendY = -1
                graphY = afterBar
            }
            graphHeight = max(0, height - scale - graphY)
        }
    }

    /// Draws `snap` as seen at `nowMs` (realtime ms; the caller decides staleness).
    // Not inlined into the event loop: text modes keep their code small and the panel's apart.
    @inline(never)
    public mutating func render(_ snap: Snapshot, nowMs: UInt64) {
        sequence &+= 1
        image.clear(PanelPalette.background)
        let layout = Layout(width: image.width, height: image.height)
        drawHeadline(snap, layout)
        drawMemoryBar(snap.memory, layout)
        if layout.legendY >= 0 { drawLegend(snap, layout) }
        switch graphForm {
        case .bars: drawGraph(snap, layout, area: false)
        case .area: drawGraph(snap, layout, area: true)
        case .numbers: drawBigNumbers(snap, layout)
        case .network: drawNetworkGraph(snap, layout)
        }
    }

    /// Draws a message instead of the figures (no snapshot, or a stale one).
    @inline(never)
    public mutating func renderMessage(_ text: StaticString) {
        sequence &+= 1
        image.clear(PanelPalette.background)
        let l = Layout(width: image.width, height: image.height)
        let textWidth = text.utf8CodeUnitCount * l.advance
        let x = max(2, (image.width - textWidth) / 2)
        let y = max(0, (image.height - l.line) / 2)
        image.stroke(PanelRect(x: 0, y: 0, width: image.width, height: image.height), PanelPalette.critical)
        image.drawText(text, x: x, y: y, color: PanelPalette.critical, scale: l.scale)
    }

    /// `CPU 12%  L 0.52` on the left, `3.2G/15.5G` on the right.
    mutating func drawHeadline(_ snap: Snapshot, _ l: Layout) {
        scratch.reset()
        scratch.append("CPU ")
        if snap.available.contains(.cpu) {
            scratch.appendPercent(permyriad: UInt64(snap.cpuBusy))
        } else {
            scratch.appendNotAvailable()
        }
        scratch.append("  L ")
        if snap.available.contains(.load) {
            scratch.appendFixed(UInt64(snap.load1), scaleDigits: 2, fractionDigits: 2)
        } else {
            scratch.appendNotAvailable()
        }
        let cpuColor = snap.cpuBusy >= 9000 ? PanelPalette.critical : (snap.cpuBusy >= 7000 ? PanelPalette.warning : PanelPalette.text)
        let end = image.drawText(scratch.bytes, x: l.left, y: l.textY, color: cpuColor, scale: l.scale)
        scratch.reset()
        if snap.available.contains(.memory) {
            scratch.appendSize(kib: snap.memory.used)
            scratch.append(UInt8(ascii: "/"))
            scratch.appendSize(kib: snap.memory.total)
        } else {
            scratch.append("mem ")
            scratch.appendNotAvailable()
        }
        let w = scratch.count * l.advance
        let x = max(end + l.advance, l.right - w + l.scale)
        let memColor = snap.urgent.contains(.memoryLow) || snap.urgent.contains(.memoryPressure) ? PanelPalette.critical : PanelPalette.text
        image.drawText(scratch.bytes, x: x, y: l.textY, color: memColor, scale: l.scale)
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
        for i in 0..<4 {
            let kib: UInt64, color: PanelColor
            switch i {
            case 0: kib = m.wired; color = PanelPalette.memWired
            case 1: kib = m.active; color = PanelPalette.memActive
            case 2: kib = m.inactive; color = PanelPalette.memInactive
            default: kib = m.other; color = PanelPalette.memOther
            }
            sum = sum > UInt64.max - kib ? UInt64.max : sum + kib
            let end = l.left + Int(proportion(min(sum, total), of: total, scale: UInt64(width)))
            image.fill(PanelRect(x: x, y: l.barY, width: end - x, height: l.barHeight), color)
            x = end
        }
    }

    /// The network rate history, oldest on the left: received bytes per second as bars, sent
    /// as a line of the same scale (the largest point of either series is the graph's height);
    /// the current rates, `rx 1.2M/s tx 34K/s`, in the top left corner where they fit. Without the
    /// network part: `net n/a` in the graph.
    mutating func drawNetworkGraph(_ snap: Snapshot, _ l: Layout) {
        let width = l.right - l.left
        let h = l.graphHeight
        guard h > 2, width > 2 else { return }
        image.stroke(PanelRect(x: l.left, y: l.graphY, width: width, height: h), PanelPalette.frame)
        let inner = PanelRect(x: l.left + 1, y: l.graphY + 1, width: width - 2, height: h - 2)
        guard snap.available.contains(.network) else {
            image.drawText("net n/a", x: inner.x + l.scale, y: inner.y + l.scale, color: PanelPalette.dimText, scale: l.scale)
            return
        }
        let count = min(snap.rxHistory.count, snap.txHistory.count, Snapshot.historyLength)
        let rxFirst = snap.rxHistory.count - count, txFirst = snap.txHistory.count - count
        var peak: UInt64 = 1
        for i in 0..<count {
            peak = max(peak, UInt64(snap.rxHistory[rxFirst + i]), UInt64(snap.txHistory[txFirst + i]))
        }
        let slots = Snapshot.historyLength
        let bottom = inner.y + inner.height
        var lastY = -1
        for slot in (slots - count)..<slots {
            let index = slot - (slots - count)
            let rx = UInt64(snap.rxHistory[rxFirst + index]), tx = UInt64(snap.txHistory[txFirst + index])
            let x0 = inner.x + slot * inner.width / slots
            var x1 = inner.x + (slot + 1) * inner.width / slots
            if x1 - x0 > 1 { x1 -= 1 }
            let rxHeight = rx > 0 ? max(1, Int(proportion(rx, of: peak, scale: UInt64(inner.height)))) : 0
            image.fill(PanelRect(x: x0, y: bottom - rxHeight, width: x1 - x0, height: rxHeight), PanelPalette.netRx)
            let txY = bottom - 1 - Int(proportion(tx, of: peak, scale: UInt64(inner.height - 1)))
            image.hline(x: x0, y: txY, length: max(1, x1 - x0), PanelPalette.netTx)
            // Join steps so the line reads as one.
            if lastY >= 0 && lastY != txY {
                let (a, b) = lastY < txY ? (lastY, txY) : (txY, lastY)
                for y in a...b { image.set(x: x0, y: y, PanelPalette.netTx) }
            }
            lastY = txY
        }
        guard count > 0, inner.height >= l.line + 2 * l.scale else { return }
        scratch.reset()
        scratch.append("rx ")
        scratch.appendRate(bytesPerSecond: UInt64(snap.rxHistory[snap.rxHistory.count - 1]))
        scratch.append(" tx ")
        scratch.appendRate(bytesPerSecond: UInt64(snap.txHistory[snap.txHistory.count - 1]))
        guard scratch.count * l.advance <= inner.width - 2 * l.scale else { return }
        image.drawText(scratch.bytes, x: inner.x + l.scale, y: inner.y + l.scale, color: PanelPalette.text, scale: l.scale)
    }

    /// The 60-point history, oldest on the left, newest at the right edge: one bar per
    /// point, or filled areas under lines. Each point stacks two layers: iowait at the
    /// bottom, busy on top of it (busy excludes iowait, so the stack's top is the share
    /// not idle). A history without iowait (a v1 snapshot) draws the busy layer alone.
    mutating func drawGraph(_ snap: Snapshot, _ l: Layout, area: Bool) {
        let width = l.right - l.left
        let h = l.graphHeight
        guard h > 2, width > 2 else { return }
        image.stroke(PanelRect(x: l.left, y: l.graphY, width: width, height: h), PanelPalette.frame)
        let inner = PanelRect(x: l.left + 1, y: l.graphY + 1, width: width - 2, height: h - 2)
        // Grid at 50 %: dotted, under the data.
        var gx = inner.x
        while gx < inner.x + inner.width { image.set(x: gx, y: inner.y + inner.height / 2, PanelPalette.frame); gx += 2 }
        let slots = Snapshot.historyLength
        let history = snap.cpuHistory.count
        let count = min(history, slots)
        let first = history - count
        // iowaitHistory is right-aligned on cpuHistory; points it lacks count as 0.
        let iowaitOffset = history - snap.iowaitHistory.count
        let bottom = inner.y + inner.height
        for slot in (slots - count)..<slots {
            // Right-aligned: a short history fills the newest slots.
            let index = first + slot - (slots - count)
            let busy = min(UInt64(snap.cpuHistory[index]), 10_000)
            let iowaitIndex = index - iowaitOffset
            let iowait = iowaitIndex >= 0 ? min(UInt64(snap.iowaitHistory[iowaitIndex]), 10_000) : 0
            let x0 = inner.x + slot * inner.width / slots
            var x1 = inner.x + (slot + 1) * inner.width / slots
            if !area && x1 - x0 > 1 { x1 -= 1 }   // a gap between bars
            // Heights rounded on the cumulative share, so the stack is as tall as busy + iowait
            // (at most the graph); but a layer above zero keeps at least one pixel: an idle
            // machine's history stays visible, and so does a little iowait under a busy bar.
            let ioTop = min(inner.height, iowait > 0 ? max(1, scaledHeight(iowait, inner.height)) : 0)
            let top = min(inner.height, max(ioTop + (busy > 0 ? 1 : 0), scaledHeight(min(busy + iowait, 10_000), inner.height)))
            let yBusy = bottom - top, yIO = bottom - ioTop
            if area {
                image.fill(PanelRect(x: x0, y: yBusy, width: x1 - x0, height: top - ioTop), PanelPalette.cpuArea)
                image.fill(PanelRect(x: x0, y: yIO, width: x1 - x0, height: ioTop), PanelPalette.cpuIOWaitArea)
                if ioTop > 0 { image.hline(x: x0, y: yIO, length: x1 - x0, PanelPalette.cpuIOWait) }
                if top > ioTop { image.hline(x: x0, y: yBusy, length: x1 - x0, PanelPalette.cpuBusy) }
            } else {
                image.fill(PanelRect(x: x0, y: yBusy, width: x1 - x0, height: top - ioTop), PanelPalette.cpuBusy)
                image.fill(PanelRect(x: x0, y: yIO, width: x1 - x0, height: ioTop), PanelPalette.cpuIOWait)
            }
        }
    }

    /// A share (permyriad, at most 10000) of `height` pixels, rounded.
    func scaledHeight(_ share: UInt64, _ height: Int) -> Int {
        Int((share * UInt64(height) + 5_000) / 10_000)
    }

    /// No graph: the CPU and memory shares as large as the space allows, each with a
    /// small label (`cpu`, `mem`) and, for CPU, the iowait share under it.
    mutating func drawBigNumbers(_ snap: Snapshot, _ l: Layout) {
        // Two groups of "100%" and a label beside each fit across the width.
        let fitWidth = ((l.right - l.left) / 2 - 4 * l.advance) / (4 * PanelFont.cellWidth)
        let scale = max(1, min(l.graphHeight / PanelFont.cellHeight, fitWidth))
        let bigHeight = PanelFont.cellHeight * scale
        let y = l.graphY + max(0, (l.graphHeight - bigHeight) / 2)
        let labelY = y + bigHeight - l.line
        let half = l.left + (l.right - l.left) / 2

        scratch.reset()
        if snap.available.contains(.cpu) {
            scratch.appendPercent(permyriad: UInt64(min(snap.cpuBusy, 10_000)))
        } else {
            scratch.appendNotAvailable()
        }
        var end = image.drawText(scratch.bytes, x: l.left, y: y, color: PanelPalette.cpuBusy, scale: scale)
        image.drawText("cpu", x: end + 2 * l.scale, y: labelY, color: PanelPalette.dimText, scale: l.scale)
        // The iowait share above the label, where it fits before the memory figure.
        if snap.available.contains(.cpu) && scale > l.scale && end + 2 * l.scale + 7 * l.advance <= half {
            scratch.reset()
            scratch.append("io ")
            scratch.appendPercent(permyriad: UInt64(min(snap.cpuIOWait, 10_000)))
            image.drawText(scratch.bytes, x: end + 2 * l.scale, y: labelY - l.line, color: PanelPalette.cpuIOWait,
                           scale: l.scale)
        }

        let m = snap.memory
        scratch.reset()
        if snap.available.contains(.memory) {
            scratch.appendPercent(permyriad: share(m.used, of: m.total))
        } else {
            scratch.appendNotAvailable()
        }
        end = image.drawText(scratch.bytes, x: half, y: y, color: PanelPalette.memActive, scale: scale)
        image.drawText("mem", x: end + 2 * l.scale, y: labelY, color: PanelPalette.dimText, scale: l.scale)
    }
}
