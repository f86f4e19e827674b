import SysstatsCLI
import XCTest

final class SinceTests: XCTestCase {
    func testGoodDurationsParseToSeconds() {
        let cases: [(String, UInt64)] = [("24h", 86_400), ("7d", 604_800), ("90m", 5400), ("90min", 5400),
                                         ("30s", 30), ("2w", 1_209_600), ("1d", 86_400), ("007h", 25_200)]
        for (text, seconds) in cases {
            XCTAssertEqual(try? Since.parse(text).get(), seconds, text)
        }
    }

    func testBadDurationsAreRefusedWithOneLine() {
        for text in ["", "h", "24", "24H", "-5h", "+5h", "5 h", " 5h", "5h ", "1.5h", "5x", "5hh", "h5", "0h", "0d",
                     "99999999999999d", "200000w", "\u{1B}[2J1h"] {
            guard case .failure(let error) = Since.parse(text) else { return XCTFail("accepted \"\(text)\"") }
            XCTAssertTrue(error.message.hasPrefix("--since: "), error.message)
            XCTAssertFalse(error.message.contains("\n") || error.message.contains("\u{1B}"), error.message)
        }
    }

    func testMessagesSayWhatIsWrong() {
        XCTAssertEqual(Since.parse("5x"), .failure(SinceError(
            message: #"--since: expected a duration like 90m, 24h or 7d (units s, m, h, d, w), got "5x""#)))
        XCTAssertEqual(Since.parse("0h"), .failure(SinceError(message: #"--since: the period must be longer than 0, got "0h""#)))
        XCTAssertEqual(Since.parse("200000w"), .failure(SinceError(message: "--since: 200000w is too long (at most 100 years)")))
    }
}
