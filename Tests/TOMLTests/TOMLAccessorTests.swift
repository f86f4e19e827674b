import TOML
import XCTest

/// The value model: typed accessors, lookups, file order, positions.
final class TOMLAccessorTests: XCTestCase {
    private let config = """
        # sysstats
        interval = 2
        ratio = 0.75
        enabled = true
        "quoted key" = 'literal'
        blocks = ["cpu", "mem", 3]

        [bar]
        output = "i3bar"
        colors = { good = "#00ff00", bad.fg = "#ff0000" }

        [[bar.block]]
        name = "cpu"

        [[bar.block]]
        name = "mem"
        format = \"\"\"
        {used}\\
        /{total}\"\"\"
        """

    private func parse(_ text: String) throws -> TOMLDocument { try TOMLDocument.parse(Array(text.utf8)) }

    func testTypedAccessorsReturnTheirKindAndNilForTheOthers() throws {
        let root = try parse(config).root
        let interval = try XCTUnwrap(root["interval"])
        XCTAssertEqual(interval.kind, .integer)
        XCTAssertEqual(interval.integer, 2)
        XCTAssertNil(interval.float, "an integer is not converted to a float")
        XCTAssertNil(interval.string)
        XCTAssertNil(interval.bool)
        XCTAssertNil(interval.array)
        XCTAssertNil(interval.table)
        XCTAssertEqual(root["ratio"]?.float, 0.75)
        XCTAssertNil(root["ratio"]?.integer)
        XCTAssertEqual(root["enabled"]?.bool, true)
        XCTAssertEqual(root["quoted key"]?.string, Array("literal".utf8))
        XCTAssertEqual(root["quoted key"]?.kind.name.description, "string")
        XCTAssertEqual(root["bar"]?.kind, .table)
        XCTAssertNotNil(root["bar"]?.table)
        XCTAssertNil(root["bar"]?.array)
        XCTAssertEqual(TOMLKind.allCases.map { $0.name.description }, ["table", "array", "string", "integer", "float", "boolean"])
    }

    func testLookupsByStaticStringBytesAndRawBufferFindTheSameValue() throws {
        let document = try parse(config)
        let root = document.root
        let byStatic = try XCTUnwrap(root["quoted key"])
        let byBytes = try XCTUnwrap(root[Array("quoted key".utf8)])
        let byRaw = try XCTUnwrap(Array("quoted key".utf8).withUnsafeBytes { root[$0] })
        XCTAssertEqual([byStatic.index, byBytes.index, byRaw.index], [byStatic.index, byStatic.index, byStatic.index])
        XCTAssertNil(root["\"quoted key\""], "keys are looked up decoded, without quotes")
        XCTAssertNil(root["missing"])
        XCTAssertNil(root["output"], "a lookup does not descend into sub-tables")
        XCTAssertEqual(root["bar"]?.table?["output"]?.string, Array("i3bar".utf8))
        XCTAssertEqual(root["bar"]?.table?["colors"]?.table?["bad"]?.table?["fg"]?.string, Array("#ff0000".utf8))
        XCTAssertNil(root[""])
    }

    func testTablesIterateTheirKeysInFileOrder() throws {
        let document = try parse(config)
        XCTAssertEqual(document.root.map { String(decoding: $0.key, as: UTF8.self) },
                       ["interval", "ratio", "enabled", "quoted key", "blocks", "bar"])
        XCTAssertEqual(document.root["bar"]!.table!.map { String(decoding: $0.key, as: UTF8.self) },
                       ["output", "colors", "block"])
        // A table named by a header before its parent's own header keeps its first place.
        let late = try parse("[x.y]\na = 1\n[b]\n[x]\nz = 2\n")
        XCTAssertEqual(late.root.map { String(decoding: $0.key, as: UTF8.self) }, ["x", "b"])
        XCTAssertEqual(late.root["x"]!.table!.map { String(decoding: $0.key, as: UTF8.self) }, ["y", "z"])
        XCTAssertEqual(late.root.count, 2)
        XCTAssertEqual(late.root[1].key, late.root["b"]!.key)
    }

    func testArraysOfTablesIterateTheirTablesInFileOrder() throws {
        let document = try parse(config)
        let blocks = try XCTUnwrap(document.root["bar"]?.table?["block"]?.array)
        XCTAssertTrue(blocks.isArrayOfTables)
        XCTAssertEqual(blocks.count, 2)
        XCTAssertEqual(blocks.map { $0.table?["name"]?.string ?? [] }, [Array("cpu".utf8), Array("mem".utf8)])
        XCTAssertEqual(blocks[1].table?["format"]?.string, Array("{used}/{total}".utf8))
        XCTAssertTrue(blocks.allSatisfy { $0.key.isEmpty && $0.kind == .table })

        let values = try XCTUnwrap(document.root["blocks"]?.array)
        XCTAssertFalse(values.isArrayOfTables)
        XCTAssertEqual(values.map(\.kind), [.string, .string, .integer])
        XCTAssertEqual(values.last?.integer, 3)
        XCTAssertEqual(Array(values.reversed()).first?.integer, 3)
    }

    func testPositionsOfValuesAndKeys() throws {
        let document = try parse(config)
        let root = document.root
        XCTAssertEqual(position(root.value), "1:1 key 1:1", "the root")
        XCTAssertEqual(position(root["interval"]!), "2:12 key 2:1")
        XCTAssertEqual(position(root["quoted key"]!), "5:16 key 5:1")
        let blocks = root["blocks"]!.array!
        XCTAssertEqual(position(blocks.value), "6:10 key 6:1")
        XCTAssertEqual(position(blocks[2]), "6:25 key 6:25", "an element has no key: its own position")
        let bar = root["bar"]!
        XCTAssertEqual(position(bar), "8:1 key 8:2", "a header's table: the '[' and the key")
        let colors = bar.table!["colors"]!.table!
        XCTAssertEqual(position(colors["bad"]!), "10:30 key 10:30", "a dotted key's table: where it is first named")
        XCTAssertEqual(position(colors["bad"]!.table!["fg"]!), "10:39 key 10:34")
        let block = bar.table!["block"]!.array!
        XCTAssertEqual(position(block.value), "12:1 key 12:7", "an array of tables: its first header")
        XCTAssertEqual(position(block[1]), "15:1 key 15:1", "each element: its own header")
        XCTAssertEqual(position(block[1].table!["format"]!), "17:10 key 17:1")
    }

    func testAnImplicitTableDefinedLaterTakesItsHeadersPosition() throws {
        let document = try parse("[a.b]\n\n[a]\n")
        let a = try XCTUnwrap(document.root["a"])
        XCTAssertEqual(position(a), "3:1 key 3:2")
        XCTAssertEqual(position(try parse("[a.b]\n").root["a"]!), "1:2 key 1:2", "never defined: where first named")
    }

    func testPositionsAfterCRLFTabsAndMultiByteCharacters() throws {
        let document = try parse("x = 1\r\n\t\"é\" = [\r\n  \"€\", 2]\r\n")
        let array = try XCTUnwrap(document.root["é"]?.array)
        XCTAssertEqual(position(array.value), "2:9 key 2:2")
        XCTAssertEqual(position(array[0]), "3:3 key 3:3")
        XCTAssertEqual(position(array[1]), "3:10 key 3:10", "'€' is three bytes")
    }

    func testParentsLeadBackToTheRoot() throws {
        let document = try parse(config)
        let fg = try XCTUnwrap(document.root["bar"]?.table?["colors"]?.table?["bad"]?.table?["fg"])
        var path: [String] = []
        var value: TOMLValue? = fg
        while let v = value {
            path.append(String(decoding: v.key, as: UTF8.self))
            value = v.parent
        }
        XCTAssertEqual(path, ["fg", "bad", "colors", "bar", ""])
        XCTAssertNil(document.root.value.parent)
        XCTAssertEqual(document.root["blocks"]!.array![0].parent?.index, document.root["blocks"]!.index)
    }

    func testEveryValueIsReachableByNumberAndFromTheRoot() throws {
        let document = try parse(config)
        // root, 5 scalars/arrays + 3 elements, bar, output, colors, good, bad, fg, block, 2 tables, 2 names, format
        XCTAssertEqual(document.valueCount, 21)
        var seen = Set<Int>()
        func walk(_ v: TOMLValue) {
            XCTAssertTrue(seen.insert(v.index).inserted)
            v.table?.forEach(walk)
            v.array?.forEach(walk)
        }
        walk(document.root.value)
        XCTAssertEqual(seen, Set(0..<document.valueCount))
        XCTAssertEqual(document.value(at: 0)?.kind, .table)
        XCTAssertNil(document.value(at: document.valueCount))
        XCTAssertNil(document.value(at: -1))
    }

    func testStringBytesIsASliceOfTheSameBytes() throws {
        let document = try parse("a = \"x\\u00e9y\"\nb = ''\n")
        let a = try XCTUnwrap(document.root["a"])
        XCTAssertEqual(a.stringBytes.map { Array($0) }, a.string)
        XCTAssertEqual(a.string, [0x78, 0xC3, 0xA9, 0x79])
        XCTAssertEqual(document.root["b"]?.string, [])
        XCTAssertNil(document.root["missing"]?.stringBytes)
    }

    func testAConfigLayerCanReportUnknownKeysAndWrongKinds() throws {
        // How the config layer will use the model: FILE:LINE:COL: message, with the key's
        // position for an unknown key and the value's for a wrong kind.
        let document = try parse("interval = \"2\"\ncolour = 1\n")
        var messages: [String] = []
        for entry in document.root {
            switch String(decoding: entry.key, as: UTF8.self) {
            case "interval" where entry.integer == nil:
                messages.append("config.toml:\(entry.line):\(entry.column): expected an integer, found a \(entry.kind.name)")
            case "interval":
                break
            default:
                messages.append("config.toml:\(entry.keyLine):\(entry.keyColumn): unknown key \"\(String(decoding: entry.key, as: UTF8.self))\"")
            }
        }
        XCTAssertEqual(messages, ["config.toml:1:12: expected an integer, found a string",
                                  "config.toml:2:1: unknown key \"colour\""])
    }

    func testTheRawBufferEntryPointReadsTheSameDocument() throws {
        let bytes = Array(config.utf8)
        let fromRaw = try bytes.withUnsafeBytes { try TOMLDocument.parse($0) }
        XCTAssertEqual(Dump.readable(fromRaw), Dump.readable(try TOMLDocument.parse(bytes)))
        XCTAssertEqual(Dump.readable(try TOMLDocument.parse(UnsafeRawBufferPointer(start: nil, count: 0))), "{}")
    }

    private func position(_ value: TOMLValue) -> String {
        "\(value.line):\(value.column) key \(value.keyLine):\(value.keyColumn)"
    }
}
