import BarCore
import SnapshotCodec

/// The one-line report, in the bar's own words and units (each part is the text the
/// `sysstats-bar` block of that name shows), what matters first, within 80 columns:
///
///     cpu 23% | mem 1009M/23.5G | load 1.23 0.45 0.07 | bat 85% | temp 52°C | disk / 75.0G free
///
/// Parts in this order: cpu, mem, load, battery, temp, disk, net, uptime, procs, swap. One
/// that would pass the width is left out, and so is what the machine lacks (no battery, no
/// sensor); a part the sampler did not measure says `n/a`. `--json` has every figure.
public enum ReportLine {
    public static let columns = 80
    public static let separator = " | "

    /// The blocks the line is made of, most important first.
    static let parts: [BarBlock] = {
        var blocks = [BarBlock(.cpu), BarBlock(.mem), BarBlock(.load)]
        for kind in [BlockKind.battery, .temp, .disk, .net] {
            var block = BarBlock(kind)
            block.hideMissing = true
            blocks.append(block)
        }
        blocks += [BarBlock(.uptime), BarBlock(.procs), BarBlock(.swap)]
        return blocks
    }()

    public static func format(_ snapshot: Snapshot, columns: Int = ReportLine.columns) -> String {
        var line = ""
        var width = 0
        for block in parts {
            let text = blockText(block, snapshot)
            guard !text.isEmpty else { continue }
            let added = TerminalFit.width(of: text) + (line.isEmpty ? 0 : separator.count)
            if width + added > columns { continue }
            if !line.isEmpty { line += separator }
            line += text
            width += added
        }
        return line
    }

    /// One block's text as the bar's plain-text output writes it (escaped there), without
    /// its newline; empty when the block is hidden.
    static func blockText(_ block: BarBlock, _ snapshot: Snapshot) -> String {
        var renderer = Renderer(output: .text, blocks: [block])
        renderer.render(snapshot, nowMs: snapshot.timestampMs)
        var bytes = Array(renderer.line.bytes)
        while bytes.last == 0x0A { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
