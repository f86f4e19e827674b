import Foundation
import XCTest

/// `block = "i3bar"` in the program: a wrapped program's flood and garbage cost the bar
/// nothing (its peak memory). (Its stream merged into ours, clicks forwarded to it, the
/// program started again when it dies, with real i3status: WrappedProgramTests, in-process.)
extension BarConfigTests {
    /// The i3bar array of a streamed line (`,` before all but the first).
    func array(_ line: String) -> [[String: Any]]? {
        let text = line.hasPrefix(",") ? String(line.dropFirst()) : line
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]
    }
    func block(_ lines: [String], named name: String) -> [String: Any]? {
        guard let last = lines.last, let blocks = array(last) else { return nil }
        return blocks.first { $0["name"] as? String == name }
    }

    func testAWrappedProgramThatFloodsOrSpeaksGarbageCostsTheBarNothing() throws {
        // Garbage lines, a 100 KB line, then a good array: only the good one shows, memory holds.
        try write("""
            [[block]]
            block = "time"
            timezone = "UTC"
            format = "%S"

            [[block]]
            block = "i3bar"
            command = "echo '{\\"version\\":1}'; echo '['; head -c 100000 /dev/zero | tr '\\\\0' x; echo; echo '[{\\"full_text\\":\\"\\\\u001b[31m\\"},'; echo '[{\\"full_text\\":\\"ok\\"}],'; exec sleep 60"
            """)
        let b = try bar(output: "i3bar")
        XCTAssertTrue(b.waitFor(timeout: 10) { self.block($0, named: "")?["full_text"] as? String == "ok" }, "\(b.lines.suffix(3))")
        for line in b.lines.dropFirst(2) { XCTAssertNotNil(array(line), "every line is one well-formed array: \(line.prefix(200))") }
        XCTAssertFalse(b.lines.joined().contains("xxxxxxxx"), "the oversized line was dropped")
        let hwm = try XCTUnwrap(peakResidentKiB(pid: b.pid))
        XCTAssertLessThan(hwm, 2048, "the bar's memory stays within its budget: \(hwm) KiB")
        XCTAssertEqual(b.stop(), 0)
    }
}
