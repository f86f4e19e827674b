import Foundation
import XCTest

/// Stable widths under real i3bar: the default blocks fit a 1280-pixel bar in every mem form,
/// and within a form the figures changing move no block (mem's `min_width` is the widest text
/// its current form has shown).
extension I3barClientTests {
    /// The x of each i3bar separator (a column of #666666 over the middle rows of the bar).
    func separators(display: Int, height: Int) throws -> [Int] {
        let image = try XWD(try rootImage(display: display))
        // i3bar is at the bottom, about 19 pixels high: its middle rows.
        let rows = (image.height - 14)..<(image.height - 6)
        return (0..<image.width).filter { x in rows.allSatisfy { image.pixel(x, $0) == 0x666666 } }
    }

    func testTheDefaultBlocksFitA1280PixelBarAndMemKeepsEachFormsWidth() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/xwd") else { throw XCTSkip("xdotool or xwd is not installed") }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let display = 690 + Int(getpid() % 100)
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path)",
                                  display: display, screen: "1280x720x24")
        // The default bar with this snapshot (no network, disk, sensor or battery measured):
        // load, mem, exited, cpu, time: five blocks, four separators.
        var before: [Int] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            usleep(300_000)
            try dir.publish(sampleSnapshot())
            before = try separators(display: display, height: 720)
        } while before.count < 4 && Date() < deadline
        XCTAssertEqual(before.count, 4, "five blocks, four separators: \(before) \(session.text)")
        guard before.count >= 2 else { return }
        XCTAssertGreaterThan(before[0], 300, "the status line leaves room for the workspace buttons: \(before)")

        // mem is the second block: between the first two separators. Each click shows its next
        // form, with its own width (issue 29: not the widest form's for good); within a form the
        // figures changing, wider then narrower, move no block.
        func publish(usedKiB: UInt64) throws {
            var s = sampleSnapshot()
            s.memory.used = usedKiB
            s.memory.available = s.memory.total - usedKiB
            try dir.publish(s)
            usleep(400_000)
        }
        for form in 0...3 {
            if form > 0 {
                try click(display: display, x: (before[0] + before[1]) / 2, y: 710)
                usleep(400_000)
            }
            try publish(usedKiB: 9_000_000)
            let wide = try separators(display: display, height: 720)
            try publish(usedKiB: 900_000)
            XCTAssertEqual(try separators(display: display, height: 720), wide,
                           "form \(form): a narrower figure moves no block (the form keeps its width)")
            XCTAssertEqual(wide.count, 4, "form \(form): no block falls back to its short text: \(wide)")
        }
        XCTAssertTrue(session.i3.isRunning)
    }
}

extension I3barClientTests {
    /// Issue 58: a bar too narrow for the full texts makes i3bar show the short ones, and it
    /// pads each to the block's `min_width`: mem's `min_width` of its long text left a hole
    /// after `mem 1%`. Here the mem block ends at most a character and a separator's half-width
    /// after its text (the widest short text of its form: `mem 56%`).
    func testInATooNarrowBarMemsShortTextLeavesNoHole() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xwd") else { throw XCTSkip("xwd is not installed") }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let display = 1300 + Int(getpid() % 100)
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path)",
                                  display: display, screen: "400x300x24")
        var seps: [Int] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            usleep(300_000)
            // A wider figure first, then a narrower one: the form's widest text is the wider.
            var wide = sampleSnapshot()
            wide.memory.used = 9_000_000
            wide.memory.available = wide.memory.total - wide.memory.used
            try dir.publish(wide)
            usleep(300_000)
            var narrow = sampleSnapshot()
            narrow.memory.used = 90_000
            narrow.memory.available = narrow.memory.total - narrow.memory.used
            try dir.publish(narrow)
            usleep(300_000)
            seps = try separators(display: display, height: 300)
        } while seps.count < 4 && Date() < deadline
        XCTAssertEqual(seps.count, 4, "five blocks, four separators: \(seps) \(session.text)")
        guard seps.count >= 2 else { return }
        let image = try XWD(try rootImage(display: display))
        let rows = (image.height - 16)..<(image.height - 3)
        // The blank columns between mem's text and the separator after it.
        var x = seps[1] - 1
        while x > seps[0] && rows.allSatisfy({ image.pixel(x, $0) == 0x000000 }) { x -= 1 }
        let blank = seps[1] - 1 - x
        // monospace 8: about 6 pixels a character; the full `mem 8.6G/15.3G` would be over 85.
        XCTAssertLessThan(seps[1] - seps[0], 75, "mem shows its short text (`mem 1%`): \(seps)")
        // Half a separator, and `mem 1%` padded to `mem 56%`'s width: one character (the hole
        // was 60 pixels, the long text's width less the short one's).
        XCTAssertLessThanOrEqual(blank, 16, "no hole after mem's short text: \(blank) blank pixels before the separator")
    }

    /// The root window of `display` as xwd writes it.
    func rootImage(display: Int) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xwd")
        p.arguments = ["-root", "-silent"]
        p.environment = ["DISPLAY": ":\(display)"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        return data
    }
}
