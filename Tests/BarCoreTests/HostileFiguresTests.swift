import BarCore
import SnapshotCodec
import XCTest

/// A snapshot is hostile input: another local user may have written it, and a /proc
/// may report anything. Every figure it can carry, at its extremes, renders in every
/// output without trapping, and shares stay within 0...100 %.
final class HostileFiguresTests: XCTestCase {
    let now: UInt64 = 1_763_750_000_000

    /// Every field at the top of its type (or the value the sampler itself would
    /// write from a /proc whose MemTotal is near 2e15 kB).
    func extremes() -> [Snapshot] {
        var huge = Snapshot()
        huge.timestampMs = now
        huge.intervalMs = .max
        huge.uptimeCentiseconds = .max
        huge.bootTime = .max
        huge.cpuBusy = .max; huge.cpuIOWait = .max
        huge.coreBusy = [.max, .max]
        huge.samplerCPU = .max; huge.samplerResidentKiB = .max
        huge.memory.total = .max; huge.memory.free = .max; huge.memory.active = .max
        huge.memory.inactive = .max; huge.memory.wired = .max; huge.memory.other = .max
        huge.memory.available = .max; huge.memory.used = .max
        huge.memory.swapTotal = .max; huge.memory.swapUsed = .max
        huge.memoryPressure = .max
        huge.load1 = .max; huge.load5 = .max; huge.load15 = .max
        huge.processCount = .max; huge.runningCount = .max
        huge.battery.count = .max; huge.battery.state = .discharging; huge.battery.percent = .max
        huge.battery.powerMilliwatts = .max; huge.battery.minutesRemaining = .max - 1
        huge.urgent = UrgentFlags(rawValue: .max)
        huge.cpuHistory = Array(repeating: .max, count: Snapshot.historyLength)
        huge.iowaitHistory = Array(repeating: .max, count: Snapshot.historyLength)
        huge.memoryHistory = Array(repeating: .max, count: Snapshot.historyLength)
        let entry = ProcessEntry(pid: .max, cpu: .max, privateKiB: .max, name: Array("x".utf8))
        huge.topCPU = [entry]; huge.topMemory = [entry]
        huge.exits = [ExitEntry(pid: .max, timeMs: now, lastPrivateKiB: .max, freedKiB: .max, name: Array("y".utf8))]

        // The reported defect: used near 1.8e15 KiB overflowed `used * 10_000 / total`.
        var defect = Snapshot()
        defect.timestampMs = now
        defect.intervalMs = 1000
        defect.memory.total = 2_000_000_000_000_000
        defect.memory.used = 1_800_000_000_000_000
        defect.memory.available = 200_000_000_000_000

        // Used above total, total 0, a share above 100 %.
        var inconsistent = Snapshot()
        inconsistent.timestampMs = now
        inconsistent.intervalMs = 1000
        inconsistent.memory.total = 1
        inconsistent.memory.used = .max
        inconsistent.cpuBusy = 60_000
        var zero = inconsistent
        zero.memory.total = 0
        return [huge, defect, inconsistent, zero]
    }

    /// Every placeholder of every block, so each format path runs too.
    func everyPlaceholder() throws -> BlockFormats {
        var formats = BlockFormats()
        for kind in BlockKind.allCases {
            var text = Array("\(kind.name)=".utf8)
            // The time block's format is strftime's: every conversion, padded and not.
            if kind == .time { text += Array("%a %A %b %B %c %C %d %D %e %F %G %g %h %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %% %-d %_H %Ey %Od %+".utf8) }
            for p in kind.placeholders {
                text.append(UInt8(ascii: "{")); text += bytes(p.name); text.append(UInt8(ascii: "}"))
                text.append(UInt8(ascii: " "))
            }
            try formats.add(text[...])
        }
        return formats
    }

    func testEveryOutputRendersExtremeFiguresWithoutTrapping() throws {
        let formats = try everyPlaceholder()
        for (index, snap) in extremes().enumerated() {
            for output in [OutputKind.text, .i3bar, .waybar, .x11Root] {
                for form in MemForm.allCases {
                    for f in [BlockFormats(), formats] {
                        let line = rendered(snap, output, blocks: BlockKind.allCases, formats: f, nowMs: now, memForm: form,
                                            usage: RendererUsage(cpu: .max, residentKiB: .max))
                        XCTAssertFalse(line.isEmpty, "snapshot \(index), \(output)")
                        if output == .i3bar || output == .waybar {
                            XCTAssertNotNil(parseJSON(line.trimmingCharacters(in: .newlines)), "snapshot \(index), \(output)")
                        }
                    }
                }
            }
            var panel = PanelRenderer(width: 180, height: 56)
            for _ in GraphForm.allCases {
                panel.render(snap, nowMs: now)
                _ = panel.click(button: 1)
            }
            var genmon = GenmonWriter()
            genmon.write(snapshot: snap, message: "", line: [], image: nil, click: nil)
            XCTAssertFalse(genmon.output.isEmpty)
        }
    }

    func testSharesFromHostileFiguresStayWithinAHundredPercent() {
        let snaps = extremes()
        XCTAssertEqual(rendered(snaps[1], .text, blocks: [.mem], nowMs: now, memForm: .percent), "mem 90%\n")
        XCTAssertEqual(rendered(snaps[2], .text, blocks: [.mem], nowMs: now, memForm: .percent), "mem 100%\n")
        XCTAssertEqual(rendered(snaps[3], .text, blocks: [.mem], nowMs: now, memForm: .percent), "mem 0%\n")
        let waybar = rendered(snaps[2], .waybar, blocks: [.cpu], nowMs: now)
        XCTAssertTrue(waybar.contains(#""percentage":100"#), waybar)
    }

    /// Found by the `snapshot` fuzz target (Fuzz/corpus/snapshot/regression-disk-share): a
    /// disk whose used and available KiB sum to nearly 2^64 trapped `df`'s rounding up.
    func testADiskWhoseFiguresSumToNearly2To64ShowsItsShareWithoutTrapping() {
        var disk = DiskFigures()
        disk.mount = Array("/".utf8)
        disk.totalKiB = .max
        disk.usedKiB = UInt64.max / 10_000
        disk.availableKiB = UInt64.max - disk.usedKiB
        XCTAssertEqual(disk.usedPermyriad, 1, "0.01 %, rounded up")
        disk.usedKiB = UInt64.max / 2; disk.availableKiB = UInt64.max / 2
        XCTAssertEqual(disk.usedPermyriad, 4_999, "a half within the rounding of the overflow path (a whole 50 %)")
        var s = extremes()[0]
        s.available.insert(.disks)
        s.disks = [disk]
        XCTAssertTrue(rendered(s, .text, blocks: [BarBlock(.disk, argument: Array("/".utf8))], nowMs: now).hasPrefix("disk / "))
    }

    private func bytes(_ s: StaticString) -> [UInt8] {
        Array(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
}

/// The renderer's own messages in place of the blocks (a snapshot that does not decode, a
/// refused runtime directory) are escaped like any other text: a decoder's message holds
/// quotes (`expected "SYSSTATS"`), which broke the i3bar and waybar JSON (found by the
/// `snapshot` fuzz target).
final class MessageEscapingTests: XCTestCase {
    let messages: [StaticString] = [
        SnapshotDecodeError.badMagic.message, SnapshotDecodeError.truncated.message,
        SnapshotDecodeError.malformed(.missingMetaSection).message, staleMessage,
    ]

    func testEveryMessageKeepsTheI3barAndWaybarLinesValidJSON() {
        for message in messages {
            for output in [OutputKind.i3bar, .waybar] {
                var r = Renderer(output: output)
                r.renderMessage(message)
                let line = String(decoding: r.line.bytes, as: UTF8.self)
                XCTAssertNotNil(parseJSON(line.trimmingCharacters(in: .newlines)), "\(output): \(line)")
                XCTAssertTrue(line.contains("not a snapshot") || line.contains("snapshot") || line.contains("sysstatsd"), line)
            }
        }
    }

    func testGenmonSaysTheMessageAsPangoText() {
        var genmon = GenmonWriter()
        genmon.write(snapshot: nil, message: SnapshotDecodeError.badMagic.message, line: [], image: nil, click: nil)
        let text = String(decoding: genmon.output.bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("(expected &quot;SYSSTATS&quot;)"), text)
    }
}
