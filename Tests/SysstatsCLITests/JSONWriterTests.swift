import Foundation
import XCTest
@testable import JSONCoding

/// JSONWriter replaced FoundationEssentials' JSONEncoder in the command line: the same
/// bytes for what it writes, checked here against JSONEncoder itself.
final class JSONWriterTests: XCTestCase {
    struct Inner: Codable { var cpuMs: Double; var name: String?; var peakRSSKiB: UInt64 }
    struct Outer: Codable {
        var myURLProperty = 3
        var p50Ms: Int64 = -4
        var inner = [Inner(cpuMs: 1.5, name: nil, peakRSSKiB: .max), Inner(cpuMs: 2, name: "a\u{1}\"/\\é", peakRSSKiB: 0)]
        var figures: [String: Double] = ["peak_rss": 1e20, "camelCase": 0.1, "B": -0.0, "a10": 1e-7]
        var flags: [Bool] = [true, false]
        var empty: [String: Int] = [:]
        var none: [Int] = []
        var maybe: Int?
        var nested: [[UInt8]] = [[1, 2], []]
    }

    func foundation<T: Encodable>(_ value: T, snakeCase: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if snakeCase {
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func testNestedTypesOptionalsAndDictionariesAreWrittenAsJSONEncoderWritesThem() throws {
        XCTAssertEqual(try JSONWriter().encode(Outer()), try foundation(Outer()))
    }

    func testSnakeCaseKeysConvertMembersButNotDictionaryKeysAsJSONEncoderDoes() throws {
        let writer = JSONWriter(snakeCaseKeys: true, nonConformingFloats: (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
        XCTAssertEqual(try writer.encode(Outer()), try foundation(Outer(), snakeCase: true))
        for key in ["cpuMs", "peakRSSKiB", "myURLProperty", "URLValue", "p50Ms", "a", "", "already_snake", "ABC", "aB", "xY1Z"] {
            XCTAssertEqual(JSONWriter.snakeCase(key), try snake(key), key)
        }
    }

    /// JSONEncoder's conversion of one member name.
    func snake(_ key: String) throws -> String {
        struct One: Encodable {
            let key: String
            struct K: CodingKey {
                var stringValue: String; var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: K.self)
                try c.encode(0, forKey: K(stringValue: key))
            }
        }
        let json = try foundation(One(key: key), snakeCase: true)
        return String(json.dropFirst(2).prefix { $0 != "\"" })
    }

    func testFloatsAreSpelledAsJSONEncoderSpellsThem() throws {
        let values: [Double] = [0, -0.0, 1, 2.5, 1e20, 1e-7, 0.1, 123456789012, 1e16, .greatestFiniteMagnitude, .leastNonzeroMagnitude, Double(Float(0.1))]
        XCTAssertEqual(try JSONWriter().encode(values), try foundation(values))
        XCTAssertEqual(try JSONWriter().encode([Float(0.1), 2, -1e30]), try foundation([Float(0.1), 2, -1e30]))
        let odd = [Double.infinity, -.infinity, .nan]
        let writer = JSONWriter(snakeCaseKeys: true, nonConformingFloats: (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
        XCTAssertEqual(try writer.encode(odd), try foundation(odd, snakeCase: true))
        XCTAssertThrowsError(try JSONWriter().encode(odd))
    }

    func testEveryControlCharacterAndQuoteIsEscapedAsJSONEncoderEscapesIt() throws {
        let text = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init) + ["\u{85}", "\u{2028}", "\u{202E}", "😀"]))
        XCTAssertEqual(try JSONWriter().encode([text]), try foundation([text]))
        XCTAssertEqual(try JSONWriter().encode("top"), try foundation("top"))
        XCTAssertEqual(try JSONWriter().encode([Int64.min]), try foundation([Int64.min]))
    }

    func testTheParserReadsWhatTheWriterWritesAndRefusesMalformedText() throws {
        let written = try JSONWriter().encode(Outer())
        let parsed = try XCTUnwrap(JSONParser.parse(Array(written.utf8)))
        XCTAssertEqual(parsed.serialized, written)
        XCTAssertEqual(JSONParser.parse(Array(#" {"a" : [1, -2.5e+3, "\ud83d\ude00\n", true, null]} "#.utf8))?.serialized,
                       #"{"a":[1,-2.5e+3,"😀\n",true,null]}"#)
        for bad in ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "\"\\x\"", "\"\u{1}\"", "\"\\ud800\"", "\"\\udc00x\"",
                    "[1] 2", "nul", "{1:2}", "\"abc", String(repeating: "[", count: 65) + String(repeating: "]", count: 65)] {
            XCTAssertNil(JSONParser.parse(Array(bad.utf8)), bad)
        }
        XCTAssertNil(JSONParser.parse([0x22, 0xFF, 0x22]), "invalid UTF-8 in a string")
        XCTAssertNotNil(JSONParser.parse(Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)))
    }
}
