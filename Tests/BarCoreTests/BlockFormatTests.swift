import BarCore
import SnapshotCodec
import XCTest

/// `--format BLOCK=TEXT`: parsing once, placeholders per block, escaping, clicks, buffers.
final class BlockFormatTests: XCTestCase {
    let desktop = Fixture.desktop.snapshot
    let laptop = Fixture.laptop.snapshot
    let now = Fixture.desktop.nowMs

    func text(_ snap: Snapshot, _ block: BlockKind, _ format: String, usage: RendererUsage = RendererUsage()) throws -> String {
        rendered(snap, .text, blocks: [block], formats: try formats(format), nowMs: now, usage: usage)
    }

    func testBothOptionSpellingsParseAndFormatsReachTheRenderer() throws {
        let o = try BarOptions.parse(["--format", "cpu=CPU {busy}% {spark}", "--format=load=L {1}={{x}}", "--blocks", "cpu,load"]
            .map { Array($0.utf8) })
        XCTAssertNotNil(o.formats[.cpu])
        XCTAssertNotNil(o.formats[.load])
        XCTAssertNil(o.formats[.mem])
        XCTAssertEqual(rendered(desktop, .text, blocks: o.blocks, formats: o.formats, nowMs: now),
                       "CPU 12% ▂▃▄▅▆▇██ | L 0.52={x}\n")
        XCTAssertEqual(try BarOptions.parse([]).formats, BlockFormats(), "no format by default")
    }

    func testLiteralBracesEmptyTextsAndEqualsSignsInTheText() throws {
        XCTAssertEqual(try text(desktop, .procs, "procs={{{count}}} }}{{"), "{312} }{\n")
        XCTAssertEqual(try text(desktop, .procs, "procs=a=b {running}"), "a=b 2\n")
        XCTAssertEqual(try text(desktop, .procs, "procs="), "\n")
        XCTAssertEqual(try text(desktop, .procs, "procs={count}{running}"), "3122\n")
        XCTAssertEqual(try text(desktop, .procs, "procs={count} procs, {threads} threads"), "312 procs, 845 threads\n")
    }

    func testTopBlockShowsTheBusiestProcessNameCPUAndMemoryAndItsPlaceholders() throws {
        XCTAssertEqual(rendered(desktop, .text, blocks: [.top], nowMs: now), "top firefox 10% 117M\n")
        XCTAssertEqual(try text(desktop, .top, "top={name} {cpu}% {mem}"), "firefox 10% 117M\n")
    }

    func testTopBlockFallsBackToTheLargestProcessWhenNoneUsedCPUAndHidesWithNeither() throws {
        var idle = desktop
        idle.topCPU = []
        idle.topMemory = [ProcessEntry(pid: 5, cpu: 0, privateKiB: 2048, name: Array("Settings".utf8))]
        XCTAssertEqual(rendered(idle, .text, blocks: [.top], nowMs: now), "top Settings 0% 2.0M\n")
        idle.topMemory = []
        XCTAssertEqual(rendered(idle, .text, blocks: [.top, .procs], nowMs: now), "procs 312 (2 run)\n")
        XCTAssertEqual(try text(idle, .top, "top=[{name}]"), "\n")
    }

    func testFormatTextOfUpTo256BytesIsAccepted() throws {
        let longest = String(repeating: "x", count: 249) + "{count}"
        XCTAssertEqual(longest.utf8.count, 256)
        XCTAssertEqual(try text(desktop, .procs, "procs=" + longest), String(repeating: "x", count: 249) + "312\n")
    }

    func testBadFormatsAreRejectedWithOneClearLine() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try BarOptions.parse(args.map { Array($0.utf8) }); return nil } catch { return error }
        }
        let cases: [([String], OptionsError, String)] = [
            (["--format", "cpu"], .formatSyntax, "sysstats-bar: --format takes BLOCK=TEXT, e.g. --format 'cpu=CPU {busy}% {spark}'"),
            (["--format"], .missingValue, "sysstats-bar: option needs a value (see --help)"),
            (["--format", "nosuch={busy}"], .unknownFormatBlock,
             "sysstats-bar: --format BLOCK=TEXT: BLOCK is one of cpu, mem, load, uptime, battery, procs, exited, self, top, swap, cores, net, wifi, disk, diskio, temp, freq, time, pressure, gpu, run_watch, path_exists, read_file, fan, power, backlight, volume, microphone, media, unit"),
            (["--format", "=x"], .unknownFormatBlock,
             "sysstats-bar: --format BLOCK=TEXT: BLOCK is one of cpu, mem, load, uptime, battery, procs, exited, self, top, swap, cores, net, wifi, disk, diskio, temp, freq, time, pressure, gpu, run_watch, path_exists, read_file, fan, power, backlight, volume, microphone, media, unit"),
            (["--format", "cpu=a", "--format=cpu=b"], .duplicateFormat, "sysstats-bar: --format given twice for the same block"),
            (["--format", "cpu={used}"], .unknownPlaceholder(.cpu, name: Array("used".utf8)),
             "sysstats-bar: --format cpu: unknown placeholder {used}; cpu has {busy} {iowait} {spark} {bars} {frequency}"),
            (["--format", "cpu={}"], .unknownPlaceholder(.cpu, name: Array("".utf8)),
             "sysstats-bar: --format cpu: unknown placeholder {}; cpu has {busy} {iowait} {spark} {bars} {frequency}"),
            (["--format", "cpu={BUSY}"], .unknownPlaceholder(.cpu, name: Array("BUSY".utf8)),
             "sysstats-bar: --format cpu: unknown placeholder {BUSY}; cpu has {busy} {iowait} {spark} {bars} {frequency}"),
            (["--format", "self={rss}"], .unknownPlaceholder(.selfCost, name: Array("rss".utf8)),
             "sysstats-bar: --format self: unknown placeholder {rss}; self has {cpu} {sampler_cpu} {bar_cpu} {sampler_rss} {bar_rss}"),
            (["--format", "cpu=CPU {busy"], .unclosedBrace,
             "sysstats-bar: --format: '{' without '}' (write {{ for a literal brace)"),
            (["--format", "cpu=CPU {"], .unclosedBrace,
             "sysstats-bar: --format: '{' without '}' (write {{ for a literal brace)"),
            (["--format", "cpu=CPU } {busy}"], .unmatchedBrace,
             "sysstats-bar: --format: '}' without '{' (write }} for a literal brace)"),
            (["--format", "cpu=" + String(repeating: "x", count: 257)], .formatTooLong,
             "sysstats-bar: --format: the text after BLOCK= is longer than 256 bytes"),
        ]
        for (args, expected, message) in cases {
            let e = error(args)
            XCTAssertEqual(e, expected, "\(args)")
            XCTAssertEqual(e.map { error -> String in
                var line = ByteWriter(capacity: 512)
                error.describe(into: &line)
                return String(decoding: line.bytes, as: UTF8.self)
            }, message, "\(args)")
        }
        // Every block's message lists exactly the placeholders its format accepts (time has
        // none: its format is strftime's).
        for block in BlockKind.allCases where block != .time && block != .command {
            var line = ByteWriter(capacity: 512)
            OptionsError.unknownPlaceholder(block).describe(into: &line)
            let message = String(decoding: line.bytes, as: UTF8.self)
            XCTAssertTrue(message.hasPrefix("sysstats-bar: --format \(block.name): unknown placeholder {}; \(block.name) has {"), message)
            let listed = message.components(separatedBy: " has ").last!.split(separator: "{").map { $0.prefix { $0 != "}" } }
            let accepted = block.placeholders.map { $0.name.description }
            XCTAssertEqual(listed.map(String.init), accepted, "\(block)")
            for name in accepted {
                XCTAssertEqual(Placeholder(block: block, name: Array(name.utf8)[...])?.name.description, name)
            }
        }
    }

    func testEachBlocksPlaceholdersRenderByteExact() throws {
        let cases: [(Snapshot, BlockKind, String, String)] = [
            (desktop, .cpu, "cpu={busy}|{iowait}|{spark}", "12|1|▂▃▄▅▆▇██"),
            (desktop, .mem, "mem={used}|{total}|{available}|{free}|{active}|{inactive}|{wired}|{other}|{percent}|{bar}|{swap}|{swap_total}",
             "4.8G|15.3G|10.5G|7.6G|2.9G|1.9G|977M|1.9G|31|██▌░░░░░|0K|0K"),
            (desktop, .load, "load={1}|{5}|{15}", "0.52|0.48|0.40"),
            (desktop, .uptime, "uptime={days}|{hours}|{minutes}|{uptime}", "1|17|40|1d 17h"),
            (laptop, .battery, "battery={percent}|{state}|{sign}|{remaining}|{power}", "8|discharging|-|1:23|9.0W"),
            (desktop, .procs, "procs={count}|{running}", "312|2"),
            (laptop, .exited, "exited={name}|{pid}|{freed}|{private}|{ago}", "chromium|99|1.2G|879M|2s"),
            (desktop, .selfCost, "self={cpu}|{sampler_cpu}|{bar_cpu}|{sampler_rss}|{bar_rss}", "0.3|0.3|0.0|3.1M|"),
        ]
        for (snap, block, format, expected) in cases {
            XCTAssertEqual(try text(snap, block, format), expected + "\n", format)
        }
        XCTAssertEqual(try text(desktop, .selfCost, "self={cpu}|{sampler_cpu}|{bar_cpu}|{sampler_rss}|{bar_rss}",
                                usage: RendererUsage(cpu: 120, residentKiB: 1400)), "1.5|0.3|1.2|3.1M|1.4M\n")
    }

    func testBatteryPlaceholdersForOtherStates() throws {
        var s = laptop
        s.battery.state = .charging; s.battery.minutesRemaining = .max
        XCTAssertEqual(try text(s, .battery, "battery={state}|{sign}|{remaining}"), "charging|+|\n")
        s.battery.state = .notCharging
        XCTAssertEqual(try text(s, .battery, "battery={state}|{sign}"), "not charging|~\n")
        s.battery.state = .unknown
        XCTAssertEqual(try text(s, .battery, "battery={state}|{sign}"), "unknown|\n")
        s.battery.state = .full
        XCTAssertEqual(try text(s, .battery, "battery={state}|{sign}"), "full|=\n")
    }

    func testAMissingBlockSaysNAWithAFormatAndAnEventBlockStaysHidden() throws {
        XCTAssertEqual(try text(desktop, .battery, "battery=B {percent}"), "bat n/a\n", "no battery: n/a, not B 0")
        XCTAssertEqual(rendered(laptop, .text, blocks: [.exited], formats: try formats("exited=gone {name}"),
                                nowMs: laptop.exits[0].timeMs + 60_001), "\n", "exit too old")
    }

    func testAFormatReplacesOnlyTheFullTextColourShortTextAndUrgencyStay() throws {
        let line = rendered(laptop, .i3bar, blocks: [.cpu, .mem], formats: try formats("cpu=C{busy}", "mem=M{percent}"), nowMs: now)
        XCTAssertEqual(line, ##"[{"name":"cpu","instance":"cpu","full_text":"C95","short_text":"cpu 95%","color":"#E06C75"},"## +
                       ##"{"name":"mem","instance":"mem","full_text":"M96","short_text":"mem 96%","color":"#E06C75","urgent":true,"## +
                       ##""min_width":"M96"}]"## + "\n", "mem is as wide as its own form has been")
        let waybar = rendered(laptop, .waybar, blocks: [.cpu], formats: try formats("cpu=C{busy}"), nowMs: now)
        XCTAssertTrue(waybar.hasPrefix(#"{"text":"C95","alt":"critical","tooltip":"C95\ntop cpu: firefox 9.5%","class":"critical","percentage":95}"#), waybar)
    }

    func testMemFormatReplacesTheUsedTotalFormAndClicksStillCycleThroughTheOthers() throws {
        var r = Renderer(output: .text, blocks: [.mem], formats: try formats("mem=RAM {used} of {total}"))
        var lines: [String] = []
        for _ in 0..<5 {
            r.render(desktop, nowMs: now)
            lines.append(String(decoding: r.line.bytes, as: UTF8.self))
            _ = r.handleClick(ClickEvent(block: .mem, button: 1))
        }
        XCTAssertEqual(lines, ["RAM 4.8G of 15.3G\n", "mem active 2.9G inact 1.9G wired 977M other 1.9G free 7.6G\n", "mem ██▌░░░░░\n", "mem 31%\n",
                               "RAM 4.8G of 15.3G\n"])
    }

    func testHostileFormatLiteralsCannotInjectJSONOrMarkup() throws {
        // Braces in a literal are doubled; the text is then `"},{"full_text":"x\ 12 </span>` + LF + SOH.
        let hostile = #"cpu="}},{{"full_text":"x\ {busy} </span>"# + "\n\u{1}"
        let f = try formats(hostile)
        let i3bar = rendered(desktop, .i3bar, blocks: [.cpu, .load], formats: f, nowMs: now)
        let blocks = try XCTUnwrap(parseJSON(i3bar) as? [[String: Any]])
        XCTAssertEqual(blocks.count, 2, "no block injected")
        XCTAssertEqual(blocks[0]["full_text"] as? String, #""},{"full_text":"x\ 12 </span>  "#, "control characters become spaces")
        XCTAssertTrue(i3bar.contains(#""full_text":"\"},{\"full_text\":\"x\\ 12 </span>  ""#), i3bar)
        let waybar = rendered(desktop, .waybar, blocks: [.cpu], formats: f, nowMs: now)
        let object = try XCTUnwrap(parseJSON(waybar) as? [String: Any])
        XCTAssertEqual(object["text"] as? String, #"&quot;},{&quot;full_text&quot;:&quot;x\ 12 &lt;/span&gt;  "#)
        XCTAssertEqual(rendered(desktop, .text, blocks: [.cpu], formats: f, nowMs: now), #""},{"full_text":"x\ 12 </span>  "# + "\n")
        // A hostile process name through {name} is escaped the same way.
        let named = rendered(Fixture.hostile.snapshot, .i3bar, blocks: [.exited], formats: try formats("exited=[{name}]"),
                             nowMs: Fixture.hostile.nowMs)
        let exited = try XCTUnwrap((parseJSON(named) as? [[String: Any]])?.first)
        XCTAssertEqual(exited["full_text"] as? String, "[" + String(decoding: Fixture.hostile.snapshot.exits[0].name, as: UTF8.self) + "]")
    }

    func testFormattedRenderingReusesItsBuffers() throws {
        // The longest formats, full of the widest placeholders, on every block.
        let f = try formats(
            "cpu=" + String(repeating: "{spark}", count: 36),
            "mem=" + String(repeating: "{bar}", count: 51),
            "load=" + String(repeating: "{15}", count: 64),
            "uptime=" + String(repeating: "{uptime}", count: 32),
            "battery=" + String(repeating: "{state}", count: 36),
            "procs=" + String(repeating: "{count}", count: 36),
            "exited=" + String(repeating: "{name}", count: 42),
            "self=" + String(repeating: "{sampler_rss}", count: 19))
        var r = Renderer(output: .i3bar, blocks: allBlocks, formats: f, streaming: true)
        var snap = Fixture.hostile.snapshot
        snap.battery.count = 1
        snap.battery.state = .discharging
        r.render(snap, nowMs: now)
        let first = r.line.bytes.withUnsafeBufferPointer { $0.baseAddress }
        let capacity = r.line.bytes.capacity
        for i in 0..<1000 {
            r.render(snap, nowMs: now + UInt64(i))
            r.line.bytes.withUnsafeBufferPointer { XCTAssertEqual($0.baseAddress, first) }
        }
        XCTAssertEqual(r.line.bytes.capacity, capacity)
        XCTAssertNotNil(parseJSON(String(decoding: r.line.bytes.dropFirst(), as: UTF8.self)))
    }

    func testAFormatForABlockNotShownIsAcceptedAndChangesNothing() throws {
        XCTAssertEqual(rendered(desktop, .text, blocks: [.uptime], formats: try formats("cpu=X{busy}"), nowMs: now), "up 1d 17h\n")
    }
}

/// docs/renderer.md's placeholder table and `--help` come from the same tables the
/// blocks render with: a placeholder added to a block's file and not documented fails here.
final class PlaceholderTableTests: XCTestCase {
    static let renderer = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/renderer.md")

    func testTheDocumentedPlaceholdersOfEachBlockAreItsTableInOrder() throws {
        let text = try String(contentsOf: Self.renderer, encoding: .utf8)
        for block in BlockKind.allCases {
            let row = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("| `\(block.name)` |") },
                                    "docs/renderer.md has no row for \(block.name)")
            let documented = row.split(separator: "{").dropFirst().map { String($0.prefix { $0 != "}" }) }
            XCTAssertEqual(documented, block.placeholders.map { $0.name.description }, "\(block.name)")
        }
    }

    func testHelpListsEveryBlocksPlaceholders() {
        var text = ByteWriter(capacity: 4096)
        helpText(into: &text)
        let help = String(decoding: text.bytes, as: UTF8.self)
        for block in BlockKind.allCases where block != .time && block != .command {
            let line = block.placeholders.map { "{\($0.name)}" }.joined(separator: " ")
            XCTAssertTrue(help.contains(line), "\(block.name): \(line)")
        }
    }
}

extension BlockFormatTests {
    /// mem keeps the width of its form (issue 29: the widest form's width left a permanent
    /// gap after `mem 1009M/23.5G`): the widest text the form has shown, kept while its figures
    /// change, and the next form's own after a click. mem has a narrower short text, so the
    /// width is kept by padding each text, not by a `min_width` that i3bar would also apply to
    /// the short text in its short mode (issue 58: a 90-pixel hole after `mem 2%`).
    func testMemKeepsTheWidthOfItsCurrentFormNotOfItsWidestForm() throws {
        func shown(_ r: inout Renderer, _ snap: Snapshot) throws -> (full: String, short: String, minWidth: String?) {
            r.render(snap, nowMs: now)
            let blocks = try XCTUnwrap(parseJSON(String(decoding: r.line.bytes, as: UTF8.self)) as? [[String: Any]])
            let mem = try XCTUnwrap(blocks.first)
            return (try XCTUnwrap(mem["full_text"] as? String), try XCTUnwrap(mem["short_text"] as? String), mem["min_width"] as? String)
        }
        var r = Renderer(output: .i3bar, blocks: [.mem])
        var big = desktop
        big.memory.used = 9 * 1024 * 1024
        big.memory.available = big.memory.total - big.memory.used
        var small = desktop
        small.memory.used = 90 * 1024
        small.memory.available = small.memory.total - small.memory.used
        let wide = try shown(&r, big)
        XCTAssertNil(wide.minWidth, "no min_width: it would widen the short text too")
        XCTAssertFalse(wide.full.contains(" A"), "the used/total form, not the breakdown: \(wide.full)")
        let narrow = try shown(&r, small)
        XCTAssertNil(narrow.minWidth)
        XCTAssertEqual(narrow.full.count, wide.full.count, "a narrower figure keeps the width the form had: '\(narrow.full)'")
        XCTAssertEqual(narrow.short.count, wide.short.count, "and so does the short text: '\(narrow.short)' after '\(wide.short)'")
        XCTAssertTrue(narrow.full.hasSuffix(" "), "the narrower figure padded: '\(narrow.full)'")
        _ = r.handleClick(ClickEvent(block: .mem, button: 1))
        let breakdown = try shown(&r, small)
        XCTAssertTrue(breakdown.full.hasPrefix("mem active "), "the next form: \(breakdown.full)")
        XCTAssertFalse(breakdown.full.hasSuffix(" "), "with its own width, not the last form's: '\(breakdown.full)'")
    }
}
