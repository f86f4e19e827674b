import BarCore
import Foundation
import SnapshotCodec
import XCTest

final class PanelTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testCommittedFontTableIsWhatTheGeneratorMakesOfTheFontSource() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.packageRoot.appendingPathComponent("scripts/make-font.py").path, "--stdout"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let generated = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let committed = try Data(contentsOf: Self.packageRoot.appendingPathComponent("Sources/BarCore/FontGlyphs.swift"))
        XCTAssertEqual(String(decoding: generated, as: UTF8.self), String(decoding: committed, as: UTF8.self),
                       "run scripts/make-font.py after editing assets/font/panel-5x8.txt")
    }

    /// The set pixels of `text` drawn alone at (0, 0), as rows of `#` and `.`.
    func drawn(_ text: [UInt8], width: Int = 64, height: Int = 8) -> [String] {
        var image = PanelImage(width: width, height: height)
        image.drawText(text, x: 0, y: 0, color: 1)
        return (0..<height).map { y in String((0..<width).map { image[$0, y] == 1 ? "#" : "." }) }
    }

    func testGlyphsComeFromTheFontSource() {
        let one = drawn(Array("1".utf8), width: 6)
        XCTAssertEqual(one, ["..#...", ".##...", "..#...", "..#...", "..#...", "..#...", ".###..", "......"])
    }

    func testEachNonASCIICharacterDrawsOneReplacementGlyph() {
        let replacement = drawn([0x7F], width: 6)   // DEL: not printable, the replacement glyph
        XCTAssertEqual(replacement[0], "#####.")
        // "é" (2 bytes), "€" (3 bytes), "😀" (4 bytes): three characters, three glyphs, then "x".
        let text = Array("é€😀x".utf8)
        XCTAssertEqual(PanelFont.characterCount(text.withUnsafeBufferPointer { $0 }), 4)
        let rows = drawn(text, width: 24)
        for cell in 0..<3 {
            XCTAssertEqual(rows.map { String(Array($0)[(cell * 6)..<(cell * 6 + 6)]) }, replacement, "cell \(cell)")
        }
        XCTAssertEqual(rows.map { String(Array($0)[18..<24]) }, drawn(Array("x".utf8), width: 6))
        // Invalid UTF-8: each stray byte is a character of its own.
        XCTAssertEqual(PanelFont.characterCount([0x80, 0xFF, 0xC3].withUnsafeBufferPointer { $0 }), 3)
        XCTAssertEqual(PanelFont.characterCount([0xC3, 0x41].withUnsafeBufferPointer { $0 }), 2, "a cut sequence ends at the next ASCII")
    }

    func testDrawingClipsToTheImageAtEveryEdge() {
        var image = PanelImage(width: 10, height: 6, color: 0)
        image.drawText(Array("WWWWWWWWWW".utf8), x: -3, y: -2, color: 7, scale: 3)
        image.drawText(Array("@@".utf8), x: 8, y: 4, color: 7)
        image.fill(PanelRect(x: -5, y: -5, width: Int.max, height: Int.max), 9)
        image.fill(PanelRect(x: Int.max - 1, y: 0, width: 10, height: 10), 8)
        image.fill(PanelRect(x: 0, y: Int.min, width: 10, height: 10), 8)
        image.stroke(PanelRect(x: -1, y: -1, width: 12, height: 8), 8)
        XCTAssertEqual(image.pixels.count, 60)
        XCTAssertEqual(Set(image.pixels), [9], "everything written lands inside; the fill covers it all")
        XCTAssertEqual(image[-1, 0], 0)
        XCTAssertEqual(image[10, 0], 0)
    }

    func testClicksCycleTheGraphFormBothWays() {
        var r = PanelRenderer()
        XCTAssertEqual(r.graphForm, .bars)
        var forward: [GraphForm] = []
        for _ in 0..<4 { XCTAssertTrue(r.click(button: 1)); forward.append(r.graphForm) }
        XCTAssertEqual(forward, [.area, .numbers, .network, .bars])
        XCTAssertTrue(r.click(button: 3))
        XCTAssertEqual(r.graphForm, .network)
        XCTAssertFalse(r.click(button: 2))
        XCTAssertEqual(r.graphForm, .network)
    }

    func testTheMemoryBarShowsTheFivePartsInProportionAndOrder() {
        var r = PanelRenderer()
        r.render(Fixture.desktop.snapshot, nowMs: Fixture.desktop.nowMs)
        // The bar's middle row, from the left margin over its 176 pixels.
        let y = 10 + 2
        let row = (2..<178).map { r.image[$0, y] }
        var runs: [(PanelColor, Int)] = []
        for c in row { if runs.last?.0 == c { runs[runs.count - 1].1 += 1 } else { runs.append((c, 1)) } }
        XCTAssertEqual(runs.map(\.0), [PanelPalette.memWired, PanelPalette.memActive, PanelPalette.memInactive,
                                       PanelPalette.memOther, PanelPalette.memFree])
        // 1 : 3 : 2 : 2 : 8 of 16 (GB), over 176 pixels.
        XCTAssertEqual(runs.map(\.1), [11, 33, 22, 22, 88])
    }

    /// Where `text`, drawn at scale 1 in `colour`, is in `image`: the top-left of each place
    /// whose cells match it pixel for pixel (its ink in `colour`, the rest of its cells not).
    func places(of text: String, colour: PanelColor, in image: PanelImage) -> [(x: Int, y: Int)] {
        let width = text.utf8.count * PanelFont.cellWidth, height = PanelFont.cellHeight
        guard image.width >= width, image.height >= height else { return [] }
        var alone = PanelImage(width: width, height: height, color: 0)
        alone.drawText(Array(text.utf8), x: 0, y: 0, color: 1)
        var found: [(x: Int, y: Int)] = []
        for y in 0...(image.height - height) {
            place: for x in 0...(image.width - width) {
                for dy in 0..<height {
                    for dx in 0..<width where (alone[dx, dy] == 1) != (image[x + dx, y + dy] == colour) { continue place }
                }
                found.append((x, y))
            }
        }
        return found
    }

    /// The parts in the bar's order: the mem block's breakdown words, their colours, and the
    /// desktop fixture's sizes as the legend writes them.
    let legendParts: [(name: String, colour: PanelColor, size: String)] = [
        ("wired", PanelPalette.memWired, "977M"), ("active", PanelPalette.memActive, "2.9G"),
        ("inact", PanelPalette.memInactive, "1.9G"), ("other", PanelPalette.memOther, "1.9G"),
        ("free", PanelPalette.memFree, "7.6G"),
    ]

    /// Issue 58: at the default size the legend says which colour is which part. Each entry is
    /// its name (dim) over its square and its size, in the bar's order, within the margins.
    func testAtTheDefaultSizeEachLegendEntryIsItsNameOverItsSquareAndSize() {
        var r = PanelRenderer()
        r.render(Fixture.desktop.snapshot, nowMs: Fixture.desktop.nowMs)
        var lastX = -1
        for part in legendParts {
            let names = places(of: part.name, colour: PanelPalette.dimText, in: r.image)
            XCTAssertEqual(names.count, 1, "\(part.name): written once, dim")
            guard let name = names.first else { continue }
            XCTAssertEqual(name.y, 18, "\(part.name): on the row under the bar")
            XCTAssertGreaterThan(name.x, lastX, "\(part.name): in the bar's order")
            lastX = name.x
            let square = (0..<5).allSatisfy { dy in
                (0..<5).allSatisfy { dx in r.image[name.x + dx, name.y + 9 + dy] == part.colour }
            }
            XCTAssertTrue(square, "\(part.name): its square under it, then its size")
            let sizes = places(of: part.size, colour: PanelPalette.text, in: r.image)
            XCTAssertTrue(sizes.contains { $0.x == name.x + 7 && $0.y == name.y + 8 }, "\(part.name): \(sizes)")
            XCTAssertLessThanOrEqual(name.x + 7 + 4 * PanelFont.cellWidth, 178, "\(part.name): room for four characters")
        }
        XCTAssertEqual(r.image[2, 35], PanelPalette.frame, "the graph starts under the legend's two rows")
    }

    /// What the legend at `width`×`height` shows: the five names (all or none), the sizes (the
    /// wired part's `977M`), the letters (`W`), and whether names and sizes share a row.
    func legend(width: Int, height: Int = 56, _ snapshot: Snapshot = Fixture.desktop.snapshot)
        -> (names: Bool, sizes: Bool, letters: Bool, oneRow: Bool) {
        var r = PanelRenderer(width: width, height: height)
        r.render(snapshot, nowMs: Fixture.desktop.nowMs)
        let names = legendParts.map { places(of: $0.name, colour: PanelPalette.dimText, in: r.image) }
        XCTAssertTrue(names.allSatisfy { $0.count == names[0].count } && names[0].count <= 1,
                      "\(width)x\(height): every name once, or none: \(names.map(\.count))")
        let size = places(of: "977M", colour: PanelPalette.text, in: r.image).first
        let letters = !places(of: "W", colour: PanelPalette.dimText, in: r.image).isEmpty
        let oneRow = names[0].first.map { name in size.map { $0.y == name.y } ?? false } ?? false
        return (names[0].count == 1, size != nil, letters, oneRow)
    }

    func testTheLegendNamesThePartsWhereTheyFitAndDropsTheNamesBeforeTheSizes() {
        let desktop = Fixture.desktop.snapshot
        // Under 164 pixels: the letters alone; from 164 to 171, the sizes without names.
        XCTAssertTrue(legend(width: 163) == (false, false, true, false))
        XCTAssertTrue(legend(width: 164) == (false, true, false, false))
        XCTAssertTrue(legend(width: 171) == (false, true, false, false))
        // From 172 (the default 180 included): each name over its square and size.
        XCTAssertTrue(legend(width: 172) == (true, true, false, false))
        XCTAssertTrue(legend(width: 180) == (true, true, false, false))
        XCTAssertTrue(legend(width: 386) == (true, true, false, false))
        // From 387: one row, `■wired 977M  ■active 2.9G …`.
        XCTAssertTrue(legend(width: 387) == (true, true, false, true))
        // Where the names' row would leave the graph under two lines: the sizes alone.
        XCTAssertTrue(legend(width: 180, height: 51) == (false, true, false, false))
        XCTAssertTrue(legend(width: 180, height: 52) == (true, true, false, false))
        // Without the memory part: the names (or the letters), never a size (nor a zero, nor n/a).
        var unavailable = desktop
        unavailable.available.remove(.memory)
        XCTAssertTrue(legend(width: 180, unavailable) == (true, false, false, false))
        XCTAssertTrue(legend(width: 387, unavailable) == (true, false, false, false))
        XCTAssertTrue(legend(width: 170, unavailable) == (false, false, true, false))
        var r = PanelRenderer()
        r.render(unavailable, nowMs: Fixture.desktop.nowMs)
        XCTAssertFalse((18..<35).contains { y in (0..<180).contains { r.image[$0, y] == PanelPalette.text } },
                       "nothing bright between the bar and the graph")
    }

    func testAShortHistoryIsRightAlignedAndTheNewestPointIsAtTheRightEdge() {
        var s = Fixture.desktop.snapshot
        s.cpuHistory = [10_000]
        var r = PanelRenderer()
        r.render(s, nowMs: 0)
        let graphBottom = 56 - 1 - 2   // inside the frame
        XCTAssertEqual(r.image[175, graphBottom], PanelPalette.cpuBusy, "the newest point, full height")
        XCTAssertEqual(r.image[175, 36], PanelPalette.cpuBusy)
        XCTAssertEqual(r.image[4, graphBottom], PanelPalette.background, "no point yet on the left")
    }

    /// One point, 50 % busy over 25 % iowait, at the newest slot (x 175) of the default
    /// graph: inner rows 36...53, 18 pixels tall. iowait rounds to 5 rows, the stack
    /// (75 %) to 14.
    func stackedColumn(_ form: GraphForm) -> [PanelColor] {
        var s = Fixture.desktop.snapshot
        s.cpuHistory = [5000]
        s.iowaitHistory = [2500]
        var r = PanelRenderer()
        r.graphForm = form
        r.render(s, nowMs: 0)
        return (39...53).map { r.image[175, $0] }
    }

    func testBarsStackBusyOnIowaitInTheirOwnColours() {
        XCTAssertEqual(stackedColumn(.bars),
                       [PanelPalette.background] + Array(repeating: PanelPalette.cpuBusy, count: 9)
                       + Array(repeating: PanelPalette.cpuIOWait, count: 5))
    }

    func testAreaStacksTwoFilledLayersEachUnderItsLine() {
        XCTAssertEqual(stackedColumn(.area),
                       [PanelPalette.background, PanelPalette.cpuBusy] + Array(repeating: PanelPalette.cpuArea, count: 8)
                       + [PanelPalette.cpuIOWait] + Array(repeating: PanelPalette.cpuIOWaitArea, count: 4))
    }

    func testALittleIowaitKeepsOnePixelUnderTheBusyBar() {
        var s = Fixture.desktop.snapshot
        s.cpuHistory = [5000]
        s.iowaitHistory = [10]
        var r = PanelRenderer()
        r.render(s, nowMs: 0)
        XCTAssertEqual(r.image[175, 53], PanelPalette.cpuIOWait)
        XCTAssertEqual(r.image[175, 52], PanelPalette.cpuBusy)
        XCTAssertEqual(r.image[175, 54 - 9], PanelPalette.cpuBusy, "the stack: 50.1 % of 18 rows")
        XCTAssertEqual(r.image[175, 54 - 10], PanelPalette.background)
    }

    func testAHistoryWithoutIowaitDrawsLikeZeroIowaitAndAShortOneIsRightAligned() {
        for form in [GraphForm.bars, .area] {
            var s = Fixture.desktop.snapshot
            s.iowaitHistory = []
            var withoutIowait = PanelRenderer(); withoutIowait.graphForm = form
            withoutIowait.render(s, nowMs: 0)
            s.iowaitHistory = Array(repeating: 0, count: s.cpuHistory.count)
            var zeros = PanelRenderer(); zeros.graphForm = form
            zeros.render(s, nowMs: 0)
            XCTAssertEqual(withoutIowait.image.pixels, zeros.image.pixels, "\(form)")
            // One iowait point belongs to the newest busy point, not the oldest.
            s.iowaitHistory = [5000]
            var short = PanelRenderer(); short.graphForm = form
            short.render(s, nowMs: 0)
            XCTAssertEqual(short.image[175, 53], form == .bars ? PanelPalette.cpuIOWait : PanelPalette.cpuIOWaitArea)
            XCTAssertEqual(short.image[148, 53], PanelPalette.background, "the oldest point (slot 50, x 148): idle")
        }
    }

    func testOutOfRangeFiguresAreClampedNotTrapped() {
        var s = Fixture.desktop.snapshot
        s.cpuHistory = Array(repeating: Permyriad.max, count: 200)
        s.iowaitHistory = Array(repeating: Permyriad.max, count: 300)
        s.cpuBusy = .max
        s.cpuIOWait = .max
        s.memory.wired = .max / 2
        s.memory.active = .max / 2
        s.memory.used = .max
        for form in GraphForm.allCases {
            for (w, h) in [(64, 24), (180, 56), (1024, 256)] {
                var r = PanelRenderer(width: w, height: h)
                r.graphForm = form
                r.render(s, nowMs: 0)
                XCTAssertEqual(r.image.pixels.count, w * h)
            }
        }
        var empty = PanelRenderer()
        empty.render(Snapshot(), nowMs: 0)
        XCTAssertEqual(empty.image[100, 12], PanelPalette.memFree, "total 0: an empty bar")
    }

    func testPNGFitsItsBufferAndDecodesToTheDrawnPixelsAtEverySize() throws {
        for (w, h) in [(64, 24), (180, 56), (1024, 256)] {
            var r = PanelRenderer(width: w, height: h)
            r.render(Fixture.laptop.snapshot, nowMs: 0)
            var encoder = PNGEncoder(width: w, height: h)
            encoder.encode(r.image)
            XCTAssertLessThanOrEqual(encoder.count, PNGEncoder.capacity(width: w, height: h))
            XCTAssertLessThan(encoder.count, h * (1 + 3 * w) / 4, "the panel is flat colour: it compresses")
            let decoded = try StoredPNG(encoder.bytes)
            XCTAssertEqual(decoded.pixels, r.image.pixels, "\(w)x\(h)")
        }
        // 1024x256 is 786,688 bytes of rows: 52 deflate blocks, and an Adler-32 reduced many times.
        var r = PanelRenderer(width: 1024, height: 256)
        r.render(panelHigh, nowMs: 0)
        var encoder = PNGEncoder(width: 1024, height: 256)
        encoder.encode(r.image)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("panel-\(getpid()).png")
        try Data(encoder.bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let decoded = try decodePNGWithPython(url.path)
        XCTAssertEqual(decoded.width, 1024)
        XCTAssertTrue(decoded.pixels == r.image.pixels, "python decodes the large image to the drawn pixels")
    }
}

final class GenmonTests: XCTestCase {
    func written(_ snapshot: Snapshot?, line: String = "", image: String? = "/run/user/1000/sysstats/panel.png",
                 click: String? = "/usr/bin/sysstats-bar --output genmon --click 1") -> String {
        var w = GenmonWriter()
        w.write(snapshot: snapshot, message: staleMessage, line: Array(line.utf8), image: image.map { Array($0.utf8) },
                click: click.map { Array($0.utf8) })
        return String(decoding: w.output.bytes, as: UTF8.self)
    }

    func testCurrentSnapshotGivesImageTextTooltipAndClick() {
        var s = Fixture.desktop.snapshot
        s.topMemory = [ProcessEntry(pid: 10, cpu: 950, privateKiB: 120_000, name: Array("firefox".utf8))]
        XCTAssertEqual(written(s, line: "cpu 12%"), """
            <img>/run/user/1000/sysstats/panel.png</img><txt>cpu 12%</txt><tool>CPU 12% (iowait 1%), load 0.52 0.48 0.40
            Memory 4.8G used of 15.3G: wired 977M, active 2.9G, inactive 1.9G, other 1.9G, free 7.6G
            <b>Top CPU</b>
              firefox 9.5%
            <b>Top memory</b>
              firefox 117M</tool><click>/usr/bin/sysstats-bar --output genmon --click 1</click>

            """)
    }

    func testStaleSaysSoInTextAndTooltip() {
        XCTAssertEqual(written(nil, line: "ignored"),
                       "<img>/run/user/1000/sysstats/panel.png</img><txt>sysstatsd stopped</txt><tool>sysstatsd stopped</tool>"
                       + "<click>/usr/bin/sysstats-bar --output genmon --click 1</click>\n")
    }

    func testHostileProcessNamesAreEscapedForPango() {
        var s = Fixture.desktop.snapshot
        s.topCPU = [
            ProcessEntry(pid: 1, cpu: 100, name: Array(#"<b>bold</b> & "q" 'a'"#.utf8)),
            ProcessEntry(pid: 2, cpu: 100, name: Array("two\nlines\u{7}</tool><click>rm -rf ~</click>".utf8)),
            ProcessEntry(pid: 3, cpu: 100, name: [0x61, 0xFF, 0xC3, 0x28, 0x62]),
        ]
        let out = written(s)
        XCTAssertTrue(out.contains("  &lt;b&gt;bold&lt;/b&gt; &amp; &quot;q&quot; &#39;a&#39; 1.0%"), out)
        XCTAssertTrue(out.contains("  two lines &lt;/tool&gt;&lt;click&gt;rm -rf ~&lt;/click&gt; 1.0%"), out)
        XCTAssertTrue(out.contains("  a\u{FFFD}\u{FFFD}(b 1.0%"), out)
        // Exactly one of each tag: nothing from a name opens or closes one.
        for tag in ["<img>", "</img>", "<txt>", "</txt>", "<tool>", "</tool>", "<click>", "</click>"] {
            XCTAssertEqual(out.components(separatedBy: tag).count, 2, tag)
        }
        XCTAssertEqual(out.filter { $0 == "\n" }.count, 6, "newlines only between tooltip lines and at the end")
    }

    func testBidiControlsInAProcessNameDoNotReachTheTooltip() {
        var s = Fixture.desktop.snapshot
        // "evil" shown as "live" by a right-to-left override; isolates and marks as well.
        s.topCPU = [ProcessEntry(pid: 1, cpu: 100, name: Array("\u{202E}evil\u{202C}\u{2067}x\u{2069}\u{200F}\u{9B}y".utf8))]
        let out = written(s)
        XCTAssertTrue(out.contains("  evilx y 1.0%"), out)
        for scalar in out.unicodeScalars {
            XCTAssertFalse((0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                           || (0x80...0x9F).contains(scalar.value) || scalar.value == 0x200F, "U+\(String(scalar.value, radix: 16))")
        }
    }

    func testPathsAndCommandsGenmonTakesRawAreLeftOutUnlessPlain() {
        XCTAssertTrue(GenmonWriter.isSafeRaw(Array("/run/user/1000/sysstats/panel.png".utf8)))
        for unsafe in ["/tmp/a<b>.png", "/tmp/x'y", "/tmp/$(id)", "/tmp/a\nb", "/tmp/a;b", "/tmp/a&b", "", "/tmp/é"] {
            XCTAssertFalse(GenmonWriter.isSafeRaw(Array(unsafe.utf8)), unsafe)
        }
        let out = written(Fixture.desktop.snapshot, image: "/tmp/</img>x.png", click: "/tmp/it's --click 1")
        XCTAssertFalse(out.contains("<img>"))
        XCTAssertFalse(out.contains("<click>"))
        XCTAssertTrue(out.hasPrefix("<txt></txt><tool>"))
    }
}
