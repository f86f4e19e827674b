import SnapshotCodec

/// `gpu 37% 6.0G/24.0G 61°C`: a GPU's busy share, its video memory used and total, its
/// temperature (`gpu:1` the card with that index, `gpu:NAME` the one whose driver or name
/// that is; default the first). Hidden on a machine without a GPU (default bar); warning
/// from 80 °C, critical from 90 °C (the card's temperature).
enum GPUBlock {
    static let descriptor = BlockDescriptor(
        name: "gpu", label: "gpu", section: .gpu, argumentKey: "card",
        marks: LevelMarks(unit: .celsius, warning: 80_000, critical: 90_000),
        present: { s, c in card(s, c.argument) != nil },
        hiddenWhenMissingByDefault: true,
        placeholders: GPUFigure.all.map(placeholder) + [
            PlaceholderSpec("vram_percent", "share of video memory used") { s, c, w in
                figure(s, c, .vram, &w) { g, w in appendWholePercent(&w, vramShare(g)) }
            },
            PlaceholderSpec("name", "the card's product name, or its PCI id") { s, c, w in
                figure(s, c, [], &w) { g, w in w.append(bytes: g.name) }
            },
            PlaceholderSpec("driver", "its kernel driver") { s, c, w in
                figure(s, c, [], &w) { g, w in w.append(bytes: g.driver) }
            },
        ],
        render: render)

    /// The placeholder of one of the card's figures, written as its unit says.
    private static func placeholder(_ f: GPUFigure) -> PlaceholderSpec {
        PlaceholderSpec(f.placeholder, f.help) { s, c, w in
            figure(s, c, f.known, &w) { g, w in ListedBlock.appendFigure(f.unit, f.value(g), into: &w) }
        }
    }

    /// Appends a figure of the block's card when the card gave it (`needs`), else `n/a`.
    private static func figure(_ snap: Snapshot, _ c: BlockContext, _ needs: GPUFigures.Known, _ w: inout ByteWriter,
                               _ append: (GPUFigures, inout ByteWriter) -> Void) {
        guard let g = card(snap, c.argument), g.known.isSuperset(of: needs) else { w.appendNotAvailable(); return }
        append(g, &w)
    }

    /// The card `argument` names: its index in digits, else its driver or name; else the first.
    static func card(_ snap: Snapshot, _ argument: [UInt8]) -> GPUFigures? {
        if argument.isEmpty { return snap.gpus.first }
        var index = 0, isNumber = argument.count <= 3
        for b in argument {
            guard b >= 0x30, b <= 0x39 else { isNumber = false; break }
            index = index * 10 + Int(b - 0x30)
        }
        for g in snap.gpus {
            if isNumber ? Int(g.index) == index : (g.driver == argument || g.name == argument) { return g }
        }
        return nil
    }

    /// VRAM used as a share of the total, permyriad.
    static func vramShare(_ g: GPUFigures) -> UInt64 {
        guard g.vramTotalBytes > 0 else { return 0 }
        let used = min(g.vramUsedBytes, g.vramTotalBytes)
        return used / 1024 * 10_000 / max(1, g.vramTotalBytes / 1024)
    }

    static func render(_ snap: Snapshot, _ c: BlockContext, into v: inout BlockValue) {
        v.full.append("gpu ")
        guard let g = card(snap, c.argument) else {
            if !c.argument.isEmpty { v.full.append(bytes: c.argument); v.full.append(UInt8(ascii: " ")) }
            v.full.appendNotAvailable()
            v.short.append(v.full)
            return
        }
        if g.known.contains(.busy) {
            appendWholePercent(&v.full, UInt64(g.busy))
            v.full.append(UInt8(ascii: "%"))
        } else {
            v.full.appendNotAvailable()
        }
        v.short.append(v.full)
        if g.known.contains(.vram) {
            v.full.append(UInt8(ascii: " "))
            v.full.appendSize(kib: g.vramUsedBytes / 1024)
            v.full.append(UInt8(ascii: "/"))
            v.full.appendSize(kib: g.vramTotalBytes / 1024)
        }
        if g.known.contains(.temperature) {
            v.full.append(UInt8(ascii: " "))
            TempBlock.appendDegrees(g.milliCelsius, into: &v.full)
            v.full.append("°C")
            v.level = c.level(rising: UInt64(max(0, g.milliCelsius)))
            if v.level == .critical { v.urgent = true }
        }
    }
}
