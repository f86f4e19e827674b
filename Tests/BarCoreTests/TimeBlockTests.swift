import BarCore
import SnapshotCodec
import XCTest

/// The time block: strftime formats, zones, when the renderer must wake, and the clock
/// beside the "sysstatsd stopped" message.
final class TimeBlockTests: XCTestCase {
    let desktop = Fixture.desktop.snapshot
    /// 2025-11-21 18:33:20 UTC, a Friday.
    let now = Fixture.desktop.nowMs

    func time(_ zone: String) -> BarBlock { BarBlock(.time, argument: Array(zone.utf8)) }

    func line(_ blocks: [BarBlock], _ output: OutputKind = .text, format: String? = nil, at ms: UInt64? = nil) throws -> String {
        let f = try format.map { try formats("time=" + $0) } ?? BlockFormats()
        return rendered(desktop, output, blocks: blocks, formats: f, nowMs: ms ?? now)
    }

    func testDefaultFormatIsWeekdayDateAndMinutesWithAShortForm() throws {
        XCTAssertEqual(try line([time("UTC")]), "Fri 2025-11-21 18:33\n")
        let i3bar = try line([time("UTC")], .i3bar)
        XCTAssertEqual(i3bar, #"[{"name":"time","instance":"UTC","full_text":"Fri 2025-11-21 18:33","short_text":"18:33"}]"# + "\n")
    }

    func testEachInstanceShowsItsOwnZone() throws {
        XCTAssertEqual(try line([time("UTC"), time("Asia/Kolkata"), time("America/New_York")], format: "%H:%M %Z"),
                       "18:33 UTC | 00:03 IST | 13:33 EST\n")
    }

    func testAZoneFollowsDaylightSavingAcrossTheChangeWithinOneRenderer() throws {
        // New York moves from EST to EDT at 2026-03-08 07:00:00 UTC.
        let before: UInt64 = 1_772_953_199_000, after: UInt64 = 1_772_953_200_000
        var r = Renderer(output: .text, blocks: [time("America/New_York")], formats: try formats("time=%H:%M:%S %Z %z"))
        r.render(desktop, nowMs: before)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "01:59:59 EST -0500\n")
        r.render(desktop, nowMs: after)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "03:00:00 EDT -0400\n")
        r.render(desktop, nowMs: before)
        XCTAssertEqual(String(decoding: r.line.bytes, as: UTF8.self), "01:59:59 EST -0500\n", "the clock stepped back")
    }

    func testTheLocalZoneIsTZ() throws {
        // The process's own TZ: compare with libc's own formatting of the same instant.
        var t = time_t(now / 1000)
        var tm = tm()
        localtime_r(&t, &tm)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, 64, "%H:%M %z", &tm)
        let expected = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        XCTAssertEqual(try line([BarBlock(.time)], format: "%H:%M %z"), expected + "\n")
    }

    func testAFormatWithSecondsTicksEverySecondAndOthersEveryMinuteOnTheMinute() throws {
        let seconds = Renderer(output: .text, blocks: [BarBlock(.time)], formats: try formats("time=%T"))
        XCTAssertEqual(seconds.nextClockTick(after: 1_000_500), 1_001_001)
        XCTAssertEqual(seconds.nextClockTick(after: 1_001_000), 1_002_001)
        let minutes = Renderer(output: .text, blocks: [BarBlock(.time)])
        XCTAssertEqual(minutes.nextClockTick(after: 120_000), 180_001)
        XCTAssertEqual(minutes.nextClockTick(after: 179_999), 180_001)
        XCTAssertNil(Renderer(output: .text, blocks: [.cpu, .mem]).nextClockTick(after: 5), "no clock, no timer")
        for (format, tick) in [("%H:%M", 60_000), ("%S", 1000), ("%-S", 1000), ("%OS", 1000), ("%r", 1000), ("%X", 1000),
                               ("%c", 1000), ("%s", 1000), ("%+", 1000), ("%%S", 60_000), ("%a %d %b", 60_000), ("%", 60_000)] {
            let r = Renderer(output: .text, blocks: [BarBlock(.time)], formats: try formats("time=" + format))
            XCTAssertEqual(r.nextClockTick(after: 0), UInt64(tick + 1), format)
        }
    }

    func testTheClockStaysBesideTheStoppedMessageInEveryOutput() throws {
        var lines: [String] = []
        for output in OutputKind.allCases where !output.isImage {
            var r = Renderer(output: output, blocks: [BarBlock(.cpu), BarBlock(.mem), time("UTC")])
            r.renderMessage(staleMessage, nowMs: now)
            lines.append(String(decoding: r.line.bytes, as: UTF8.self))
        }
        XCTAssertEqual(lines, [
            "sysstatsd stopped | Fri 2025-11-21 18:33\n", "sysstatsd stopped | Fri 2025-11-21 18:33\n",
            "sysstatsd stopped | Fri 2025-11-21 18:33\n", "sysstatsd stopped | Fri 2025-11-21 18:33\n",
            ##"[{"name":"sysstats","full_text":"sysstatsd stopped","color":"#E06C75"},{"name":"time","instance":"UTC","full_text":"Fri 2025-11-21 18:33","short_text":"18:33"}]"## + "\n",
            #"{"text":"sysstatsd stopped | Fri 2025-11-21 18:33","alt":"stale","tooltip":"sysstatsd stopped\nFri 2025-11-21 18:33","class":"stale"}"# + "\n",
            "sysstatsd stopped | Fri 2025-11-21 18:33",
        ])
        var clockOnly = Renderer(output: .text, blocks: [time("UTC")])
        clockOnly.renderMessage(staleMessage, nowMs: now)
        XCTAssertEqual(String(decoding: clockOnly.line.bytes, as: UTF8.self), "Fri 2025-11-21 18:33\n",
                       "a bar of clocks only has nothing to say about the sampler")
        var clockFirst = Renderer(output: .text, blocks: [time("UTC"), BarBlock(.load)])
        clockFirst.renderMessage(staleMessage, nowMs: now)
        XCTAssertEqual(String(decoding: clockFirst.line.bytes, as: UTF8.self), "Fri 2025-11-21 18:33 | sysstatsd stopped\n")
    }

    func testTimeNeedsNoSnapshotPart() throws {
        var s = desktop
        s.available = []
        XCTAssertEqual(rendered(s, .text, blocks: [time("UTC")], nowMs: now), "Fri 2025-11-21 18:33\n")
    }

    func testZonesAndFormatsAreCheckedOnTheCommandLine() {
        func error(_ args: [String]) -> OptionsError? {
            do { _ = try BarOptions.parse(args.map { Array($0.utf8) }); return nil } catch { return error }
        }
        XCTAssertNil(error(["--blocks", "time,time:UTC,time:Europe/Paris"]))
        XCTAssertEqual(error(["--blocks", "time:Nowhere/Atlantis"]), .unknownTimeZone)
        XCTAssertEqual(error(["--blocks", "time:"]), .unknownTimeZone)
        XCTAssertEqual(error(["--blocks", "time:../../etc/passwd"]), .unknownTimeZone)
        XCTAssertEqual(error(["--blocks", "time:/usr/share/zoneinfo/UTC"]), .unknownTimeZone)
        XCTAssertEqual(error(["--blocks", "time:UTC\"x"]), .unknownTimeZone)
        XCTAssertEqual(error(["--blocks", "cpu:UTC"]), .unexpectedArgument)
        XCTAssertEqual(error(["--format", "time="]), .badTimeFormat)
        XCTAssertEqual(error(["--format", "time=%H\u{0}%M"]), .badTimeFormat)
        XCTAssertEqual(error(["--format", "time=%H", "--format", "time=%M"]), .duplicateFormat)
        XCTAssertEqual(error(["--format", "time=" + String(repeating: "x", count: 257)]), .formatTooLong)
        XCTAssertEqual(error(["--blocks", "time,time:Asia/Tokyo,time"]), .duplicateBlock(Array("time".utf8)), "a block twice is refused")
        let o = try? BarOptions.parse(["--blocks", "time,time:Asia/Tokyo"].map { Array($0.utf8) })
        XCTAssertEqual(o?.blocks, [BarBlock(.time), BarBlock(.time, argument: Array("Asia/Tokyo".utf8))])
    }

    func testATextLongerThanTheBlockKeepsShowsNAAndBracesAreLiteral() throws {
        // 64 × "%A" of a Friday is 64 × 6 = 384 bytes: more than the 255 kept.
        XCTAssertEqual(try line([time("UTC")], format: String(repeating: "%A", count: 64)), "n/a\n")
        XCTAssertEqual(try line([time("UTC")], format: "{busy} %%"), "{busy} %\n", "braces are literal text for strftime")
    }

    func testRenderingTheClockReusesItsBuffers() throws {
        var r = Renderer(output: .i3bar, blocks: [time("UTC"), time("Europe/Paris"), BarBlock(.cpu)],
                         formats: try formats("time=%A %d %B %Y %H:%M:%S %Z"), streaming: true)
        r.render(desktop, nowMs: now)
        let first = r.line.bytes.withUnsafeBufferPointer { $0.baseAddress }
        for i in 0..<3000 {
            r.render(desktop, nowMs: now + UInt64(i) * 1000)
            r.line.bytes.withUnsafeBufferPointer { XCTAssertEqual($0.baseAddress, first) }
        }
    }
}

/// The swap and cores blocks: figures the snapshot already carries.
final class SwapAndCoresBlockTests: XCTestCase {
    let now = Fixture.desktop.nowMs

    func snapshot(swapUsed: UInt64, swapTotal: UInt64, cores: [Permyriad] = []) -> Snapshot {
        var s = Fixture.desktop.snapshot
        s.memory.swapUsed = swapUsed
        s.memory.swapTotal = swapTotal
        if !cores.isEmpty { s.coreBusy = cores }
        return s
    }

    func testSwapShowsUsedOverTotalAndItsLevels() throws {
        let half = snapshot(swapUsed: 1_048_576, swapTotal: 2_097_152)
        XCTAssertEqual(rendered(half, .text, blocks: [.swap], nowMs: now), "swap 1.0G/2.0G\n")
        let i3bar = try XCTUnwrap(parseJSON(rendered(half, .i3bar, blocks: [.swap], nowMs: now)) as? [[String: Any]])
        XCTAssertEqual(i3bar[0]["short_text"] as? String, "swap 50%")
        XCTAssertEqual(i3bar[0]["color"] as? String, "#E5C07B", "warning from half used")
        let full = try XCTUnwrap(parseJSON(rendered(snapshot(swapUsed: 1_800_000, swapTotal: 2_097_152), .i3bar,
                                                    blocks: [.swap], nowMs: now)) as? [[String: Any]])
        XCTAssertEqual(full[0]["color"] as? String, "#E06C75", "critical from 80 %")
        XCTAssertEqual(rendered(snapshot(swapUsed: 0, swapTotal: 0), .text, blocks: [.swap], nowMs: now), "swap off\n")
        XCTAssertEqual(rendered(snapshot(swapUsed: 1024, swapTotal: 524_288), .waybar, blocks: [.swap], nowMs: now),
                       #"{"text":"swap 1.0M/512M","alt":"normal","tooltip":"swap 1.0M/512M\ntop cpu: firefox 9.5%","class":"normal","percentage":0}"# + "\n")
    }

    func testSwapPlaceholdersAndUsedAboveTotal() throws {
        let s = snapshot(swapUsed: 524_288, swapTotal: 2_097_152)
        XCTAssertEqual(rendered(s, .text, blocks: [.swap], formats: try formats("swap={used}|{total}|{free}|{percent}|{bar}"), nowMs: now),
                       "512M|2.0G|1.5G|25|██░░░░░░\n")
        let hostile = snapshot(swapUsed: .max, swapTotal: 10)
        XCTAssertEqual(rendered(hostile, .text, blocks: [.swap], formats: try formats("swap={free} {percent}"), nowMs: now), "0K 100\n")
    }

    func testCoresShowOneCellPerCoreAndTheBusiest() throws {
        let s = snapshot(swapUsed: 0, swapTotal: 0, cores: [0, 2500, 5000, 10_000])
        XCTAssertEqual(rendered(s, .text, blocks: [.cores], nowMs: now), "cores ▁▃▅█\n")
        let i3bar = try XCTUnwrap(parseJSON(rendered(s, .i3bar, blocks: [.cores], nowMs: now)) as? [[String: Any]])
        XCTAssertEqual(i3bar[0]["short_text"] as? String, "cores max 100%")
        XCTAssertEqual(i3bar[0]["color"] as? String, "#E5C07B", "a core at the cpu critical threshold warns")
        XCTAssertEqual(rendered(s, .text, blocks: [.cores], formats: try formats("cores={count}:{bars} max {max}"), nowMs: now),
                       "4:▁▃▅█ max 100\n")
        let many = snapshot(swapUsed: 0, swapTotal: 0, cores: Array(repeating: 65535, count: 200))
        XCTAssertEqual(rendered(many, .text, blocks: [.cores], nowMs: now), "cores " + String(repeating: "█", count: 64) + "\n",
                       "at most 64 cells; shares over 100 % clamp")
    }

    func testSwapAndCoresSayNAWithoutTheirParts() {
        var s = Fixture.desktop.snapshot
        s.available.remove(.memory)
        s.available.remove(.cpu)
        XCTAssertEqual(rendered(s, .text, blocks: [.swap, .cores], nowMs: now), "swap n/a | cores n/a\n")
    }
}
