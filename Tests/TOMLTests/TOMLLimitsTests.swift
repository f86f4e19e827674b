import TOML
import XCTest

/// The limits (size, nesting, string and key lengths) and hostile input: every byte,
/// invalid UTF-8, huge numbers, deep nesting, many keys, mutated documents.
final class TOMLLimitsTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) throws(TOMLError) -> TOMLDocument { try TOMLDocument.parse(bytes) }
    private func parse(_ text: String) throws(TOMLError) -> TOMLDocument { try TOMLDocument.parse(Array(text.utf8)) }

    private func pin(_ bytes: [UInt8]) -> String {
        do {
            _ = try parse(bytes)
            return "accepted"
        } catch {
            return "\(error.line):\(error.column) \(error.reason)"
        }
    }
    private func pin(_ text: String) -> String { pin(Array(text.utf8)) }

    // MARK: - Limits

    func testAFileOfExactly64KiBIsReadAndOneByteMoreIsRefused() throws {
        var bytes = Array("a = 1\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: TOMLDocument.maximumSize - bytes.count)
        XCTAssertEqual(try parse(bytes).root["a"]?.integer, 1)
        bytes.append(UInt8(ascii: "\n"))
        XCTAssertEqual(pin(bytes), "1:1 fileTooLarge")
        XCTAssertEqual(TOMLError.Reason.fileTooLarge.message.description, "file is larger than 64 KiB")
    }

    func testNestingOf32LevelsIsReadAnd33IsRefused() throws {
        // a's array is at depth 1, the nth '[' at depth n.
        func arrays(_ n: Int) -> String { "a = " + String(repeating: "[", count: n) + String(repeating: "]", count: n) }
        XCTAssertEqual(pin(arrays(32)), "accepted")
        XCTAssertEqual(pin(arrays(33)), "1:37 nestingTooDeep", "the 33rd '['")

        func dotted(_ n: Int) -> String { (1...n).map { "k\($0)" }.joined(separator: ".") + " = 1" }
        let deep = try parse(dotted(32))
        var value = deep.root.value
        for _ in 0..<32 { value = value.table![0] }
        XCTAssertEqual(value.integer, 1)
        XCTAssertEqual(pin(dotted(33)), "1:120 nestingTooDeep", "the 33rd key")

        func header(_ n: Int) -> String { "[" + (1...n).map { "t\($0)" }.joined(separator: ".") + "]\n" }
        XCTAssertEqual(pin(header(32)), "accepted")
        XCTAssertEqual(pin(header(32) + "x = 1\n"), "2:1 nestingTooDeep", "a value in a table at depth 32")
        XCTAssertEqual(pin(header(33)), "1:121 nestingTooDeep")
        XCTAssertEqual(pin("[[a]]\n" + header(31).replacingOccurrences(of: "[t1.", with: "[a.")), "accepted",
                       "an array of tables is a level, its table another")
        XCTAssertEqual(pin("[[a]]\n" + header(32).replacingOccurrences(of: "[t1.", with: "[a.")), "2:116 nestingTooDeep", "t32")

        func inline(_ n: Int) -> String { "a = " + String(repeating: "{b=", count: n - 1) + "1" + String(repeating: "}", count: n - 1) }
        XCTAssertEqual(pin(inline(32)), "accepted")
        XCTAssertEqual(pin(inline(33)), "1:99 nestingTooDeep", "the key of the value at depth 33")
    }

    func testDeepNestingIsRefusedWithoutRecursingThroughIt() {
        // 60,000 brackets: refused at level 33, long before the stack would matter.
        XCTAssertEqual(pin("a = " + String(repeating: "[", count: 60_000)), "1:37 nestingTooDeep")
        XCTAssertEqual(pin("a = " + String(repeating: "{b=", count: 20_000)), "1:99 nestingTooDeep")
        XCTAssertEqual(pin(String(repeating: "[", count: 60_000)), "1:3 expectedKey")
        XCTAssertEqual(pin(String(repeating: "a.", count: 30_000) + "a=1"), "1:65 nestingTooDeep")
    }

    func testAStringOf4096BytesIsReadAndOneByteMoreIsRefused() throws {
        let limit = TOMLDocument.maximumStringLength
        for (open, close) in [("\"", "\""), ("'", "'"), ("\"\"\"", "\"\"\""), ("'''", "'''")] {
            let text = "s = " + open + String(repeating: "x", count: limit) + close
            XCTAssertEqual(try parse(text).root["s"]?.string?.count, limit, open)
            XCTAssertEqual(pin("s = " + open + String(repeating: "x", count: limit + 1) + close), "1:5 stringTooLong", open)
        }
        // The decoded length counts: an escape's bytes, not its digits; a CRLF as one byte.
        let escapes = String(repeating: "\\u00e9", count: limit / 2)
        XCTAssertEqual(try parse("s = \"" + escapes + "\"").root["s"]?.string?.count, limit)
        XCTAssertEqual(pin("s = \"" + escapes + "x\""), "1:5 stringTooLong")
        XCTAssertEqual(pin("s = \"x" + escapes + "\""), "1:5 stringTooLong", "the last escape would pass the limit")
        let lines = "s = \"\"\"\r\n" + String(repeating: "x\r\n", count: limit / 2) + "\"\"\""
        XCTAssertEqual(try parse(lines).root["s"]?.string?.count, limit)
    }

    func testAKeyOf256BytesIsReadAndOneByteMoreIsRefused() throws {
        let limit = TOMLDocument.maximumKeyLength
        let key = String(repeating: "k", count: limit)
        XCTAssertEqual(try parse(key + " = 1").root[Array(key.utf8)]?.integer, 1)
        XCTAssertEqual(try parse("\"" + key + "\" = 1").root.count, 1)
        XCTAssertEqual(try parse("[a.'" + key + "']").root["a"]?.table?.count, 1)
        XCTAssertEqual(pin(key + "k = 1"), "1:1 keyTooLong")
        XCTAssertEqual(pin("a.\"" + key + "k\" = 1"), "1:3 keyTooLong")
        XCTAssertEqual(pin("[a.'" + key + "k']"), "1:4 keyTooLong")
        XCTAssertEqual(pin("\"" + String(repeating: "\\u00e9", count: limit / 2) + "x\" = 1"), "1:1 keyTooLong")
    }

    // MARK: - Hostile bytes

    func testEveryByteAloneInEveryPlaceNeverTraps() {
        let places: [(String, String)] = [("", ""), ("a = ", ""), ("a = \"", "\""), ("a = '", "'"), ("# ", ""),
                                          ("a = \"\"\"", "\"\"\""), ("[", "]"), ("a = [1", "]"), ("a = {b=1", "}"),
                                          ("a = 1", ""), ("a = \"\\", "\""), ("a = 0x", ""), ("a = 1.", "")]
        var refused = 0
        for (before, after) in places {
            for byte in 0...255 {
                let bytes = Array(before.utf8) + [UInt8(byte)] + Array(after.utf8)
                do {
                    let document = try parse(bytes)
                    XCTAssertGreaterThanOrEqual(document.valueCount, 1)
                } catch {
                    refused += 1
                    XCTAssertEqual(error.line, 1, "\(before) \(byte)")
                    XCTAssertTrue(error.column >= 1 && error.column <= bytes.count + 1, "\(before) \(byte)")
                }
            }
        }
        XCTAssertGreaterThan(refused, 13 * 128)
        // Every control byte but tab and LF is refused wherever it is.
        for byte in [0x00, 0x01, 0x08, 0x0B, 0x0C, 0x0E, 0x1B, 0x1F, 0x7F] {
            for (before, after) in places {
                let bytes = Array(before.utf8) + [UInt8(byte)] + Array(after.utf8)
                XCTAssertEqual(pin(bytes), "1:\(before.utf8.count + 1) controlCharacter", "\(before) \(byte)")
            }
        }
    }

    func testInvalidUTF8IsRefusedAtItsFirstByte() {
        let sequences: [[UInt8]] = [[0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
                                    [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
                                    [0xFE], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]]
        for s in sequences {
            XCTAssertEqual(pin(Array("a = \"é".utf8) + s + Array("\"".utf8)), "1:8 invalidUTF8", "\(s)")
            XCTAssertEqual(pin(Array("# x\n#".utf8) + s), "2:2 invalidUTF8", "\(s) at the end of the file")
        }
        XCTAssertEqual(pin([0xEF, 0xBB]), "1:1 invalidUTF8", "half a byte order mark")
        XCTAssertEqual(pin([0xFF, 0xFE, 0x61, 0x00]), "1:1 invalidUTF8", "UTF-16")
    }

    func testHugeNumbersAreRefusedOrRoundedWithoutTrapping() throws {
        let digits = String(repeating: "9", count: 60_000)
        XCTAssertEqual(pin("a = " + digits), "1:5 integerOverflow")
        XCTAssertEqual(pin("a = -" + digits), "1:5 integerOverflow")
        XCTAssertEqual(pin("a = 0x" + String(repeating: "F", count: 17)), "1:5 integerOverflow")
        XCTAssertEqual(pin("a = 0b1" + String(repeating: "0", count: 63)), "1:5 integerOverflow")
        XCTAssertEqual(try parse("a = 0b" + String(repeating: "0", count: 60_000) + "1").root["a"]?.integer, 1)
        XCTAssertEqual(try parse("a = " + digits + ".0").root["a"]?.float, .infinity)
        XCTAssertEqual(try parse("a = 0." + digits).root["a"]?.float, 1.0)
        XCTAssertEqual(try parse("a = 0." + String(repeating: "0", count: 60_000) + "1").root["a"]?.float, 0.0)
        XCTAssertEqual(try parse("a = 1e99999999999999999999").root["a"]?.float, .infinity)
        XCTAssertEqual(try parse("a = -1e-99999999999999999999").root["a"]?.float?.sign, .minus)
        XCTAssertEqual(try parse("a = -1e-99999999999999999999").root["a"]?.float, 0.0)
        XCTAssertEqual(try parse("a = 0e99999999999999999999").root["a"]?.float, 0.0)
        XCTAssertEqual(try parse("a = 1" + String(repeating: "0", count: 308) + ".0").root["a"]?.float, 1e308)
        // The largest subnormal and the smallest normal, each side of a hard-to-round value.
        XCTAssertEqual(try parse("a = 2.2250738585072011e-308").root["a"]?.float?.bitPattern, 0x000F_FFFF_FFFF_FFFF)
        XCTAssertEqual(try parse("a = 2.2250738585072012e-308").root["a"]?.float?.bitPattern, 0x0010_0000_0000_0000)
    }

    func testManyKeysAreAllFoundAgain() throws {
        var text = ""
        var n = 0
        while text.utf8.count < TOMLDocument.maximumSize - 32 {
            text += "k\(n) = \(n)\n"
            n += 1
        }
        let document = try parse(text)
        XCTAssertEqual(document.root.count, n)
        for i in stride(from: 0, to: n, by: 7) {
            XCTAssertEqual(document.root[Array("k\(i)".utf8)]?.integer, Int64(i))
        }
        XCTAssertEqual(pin(text + "k\(n / 2) = 0"), "\(n + 1):1 duplicateKey")
    }

    func testMutatedDocumentsNeverTrapAndRefusalsPointIntoTheInput() {
        // A deterministic generator (xorshift), so a failure reproduces.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        let alphabet = Array("[]{}=,.\"'\\#\n\r\t _-+0123456789aeEfinrstuxob:TZé".utf8) + [0x00, 0x7F, 0xC3, 0xFF]
        var accepted = 0
        for c in TOMLCases.valid {
            for _ in 0..<60 {
                var bytes = Array(c.text.utf8)
                for _ in 0..<(1 + next() % 4) {
                    let at = bytes.isEmpty ? 0 : next() % (bytes.count + 1)
                    switch next() % 3 {
                    case 0: bytes.insert(alphabet[next() % alphabet.count], at: at)
                    case 1: if at < bytes.count { bytes.remove(at: at) }
                    default: if at < bytes.count { bytes[at] = alphabet[next() % alphabet.count] }
                    }
                }
                do {
                    let document = try parse(bytes)
                    accepted += 1
                    XCTAssertEqual(Dump.canonical(document.root.value).isEmpty, false)
                } catch {
                    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                    XCTAssertTrue(error.line >= 1 && error.line <= lines.count, c.name)
                    if error.line >= 1 && error.line <= lines.count {
                        XCTAssertTrue(error.column >= 1 && error.column <= lines[error.line - 1].count + 1, c.name)
                    }
                    XCTAssertTrue(error.offset >= 0 && error.offset <= bytes.count)
                }
            }
        }
        XCTAssertGreaterThan(accepted, 100)
    }
}
