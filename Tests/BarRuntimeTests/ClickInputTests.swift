import BarCore
@testable import BarRuntime
import Foundation
import SnapshotCodec
import XCTest

/// Click input in-process: i3bar's click events written to a pipe the bar reads as it reads
/// stdin (``Bar/clickInput``), and the lines it shows after each.
final class ClickInputTests: RuntimeDirectoryHarness {
    /// 3.8 GiB used of 15.3, its five-part breakdown for the mem block's second form.
    func publishMemory() throws {
        try publish { s in
            s.memory.total = 16_000_000
            s.memory.used = 4_000_001
            s.memory.available = 11_999_999
            s.memory.free = 8_000_000
            s.memory.active = 4_000_000
            s.memory.inactive = 2_000_000
            s.memory.wired = 1_000_000
            s.memory.other = 1_000_000
        }
    }

    /// An i3bar bar of the mem block over ``publishMemory()``, reading clicks from the pipe,
    /// its first line shown.
    func memBar() throws -> Bar<Sink> {
        try publishMemory()
        var b = try bar(["--output", "i3bar", "--blocks", "mem"])
        giveClickPipe(&b)
        XCTAssertEqual(b.load(), .fresh)
        b.emit()
        XCTAssertEqual(b.sink.lines.count, 1)
        return b
    }

    /// Reads as the loop does while poll() says stdin is ready: until the pipe is empty.
    func readAll(_ b: inout Bar<Sink>) {
        var pending: Int32 = 0
        for _ in 0..<64 {
            guard b.readStdin() else { return XCTFail("clicks stay on while the pipe is open") }
            _ = ioctl(clickEnds[0], UInt(FIONREAD), &pending)
            if pending == 0 { return }
        }
        XCTFail("the bar left \(pending) bytes of input unread")
    }

    func testALeftClickCyclesTheMemFormAndARightClickBringsItBack() throws {
        var b = try memBar()
        XCTAssertTrue(b.sink.lines.last?.contains(#""full_text":"mem 3.8G/15.3G""#) == true, "\(b.sink.lines)")
        sendClicks("[\n" + #"{"name":"mem","instance":"mem","button":1,"x":1,"y":1}"# + "\n")
        readAll(&b)
        XCTAssertTrue(b.sink.lines.last?.contains("mem active 3.8G inact 1.9G wired 977M other 977M free 7.6G") == true, "\(b.sink.lines.last ?? "")")
        sendClicks(#",{"name":"mem","button":3}"# + "\n")
        readAll(&b)
        XCTAssertTrue(b.sink.lines.last?.contains(#""full_text":"mem 3.8G/15.3G""#) == true, "\(b.sink.lines.last ?? "")")
        XCTAssertEqual(b.sink.lines.count, 3, "one update per click that changed the line")
    }

    /// Hostile input on stdin: a line that is not JSON and one longer than the read buffer
    /// are skipped whole, and the click after them still counts.
    func testGarbageAndAnOverlongLineAreSkippedAndTheNextClickCounts() throws {
        var b = try memBar()
        sendClicks("[\ngarbage that is not json\n" + String(repeating: "x", count: 20_000) + "\n")
        sendClicks(#"{"name":"mem","button":1}"# + "\n")
        readAll(&b)
        XCTAssertEqual(b.sink.lines.count, 2, "\(b.sink.lines)")
        XCTAssertTrue(b.sink.lines.last?.contains("mem active 3.8G") == true, "\(b.sink.lines.last ?? "")")
    }

    func testAClickOnNoBlockOfTheBarChangesNothing() throws {
        var b = try memBar()
        sendClicks("[\n" + #"{"name":"cpu","button":1}"# + "\n" + #",{"name":"mem","instance":"other","button":1}"# + "\n")
        readAll(&b)
        XCTAssertEqual(b.sink.lines.count, 1, "\(b.sink.lines)")
    }

    /// i3bar gone or started without click events: the end of stdin turns click reading off
    /// (the loop then leaves stdin out of its poll set) and the bar goes on.
    func testTheEndOfInputTurnsClickReadingOff() throws {
        var b = try memBar()
        close(clickEnds[1]); clickEnds[1] = -1
        XCTAssertFalse(b.readStdin())
        b.readClicks = false
        _ = b.fillPollSet()
        XCTAssertEqual(b.fds[2].fd, -1, "stdin is out of the poll set")
        XCTAssertEqual(b.sink.lines.count, 1)
    }
}
