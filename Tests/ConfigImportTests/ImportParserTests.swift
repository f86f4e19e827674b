import XCTest
@testable import ConfigImport

/// The four config languages read as their programs read them.
final class ImportParserTests: XCTestCase {
    // MARK: i3status (libconfuse)

    func testI3statusTakesItsWholeGrammar() throws {
        let conf = try I3statusConf.parse("""
            # a comment
            general {
                colors = true   # trailing
                interval = 5 // another
            }
            /* a block
               comment */
            order += "disk /"
            order += 'tztime berlin'
            disk "/"{
                format = '%avail'
            }
            tztime berlin{ format = "%H:%M" timezone = "Europe/Berlin" }
            """)
        XCTAssertEqual(conf.order.map(\.module), ["disk /", "tztime berlin"])
        XCTAssertEqual(conf.order.map(\.line), [8, 9])
        XCTAssertEqual(conf.general?["interval"], "5")
        XCTAssertEqual(conf.section(for: "disk /")?["format"], "%avail")
        XCTAssertEqual(conf.section(for: "disk /")?.line, 10)
        XCTAssertEqual(conf.section(for: "tztime berlin")?["timezone"], "Europe/Berlin")
    }

    func testI3statusRefusesWhatLibconfuseRefusesWithTheLine() {
        for (text, line, reason) in [("cpu_usage {\n  format = \"%usage\n}", 2, "a string has no closing \""),
                                     ("order += \"cpu_usage\"\nmemory {\n format %used\n}", 3, "memory: format needs ="),
                                     ("memory {\n", 1, "the file ends inside a section")] {
            XCTAssertThrowsError(try I3statusConf.parse(text)) { error in
                XCTAssertEqual(error as? ImportError, ImportError(line: line, reason), text)
            }
        }
    }

    // MARK: waybar (JSON with comments and trailing commas)

    func testJSONCTakesCommentsTrailingCommasAndKeepsLines() throws {
        let node = try JSONCNode.parse("""
            // top
            {
              "modules-right": ["cpu", "clock",], /* inline */
              "cpu": { "format": "{usage}% \\u00e9\\ud83d\\ude00", "interval": 2, },
            }
            """)
        XCTAssertEqual(node["modules-right"]?.array?.compactMap(\.string), ["cpu", "clock"])
        XCTAssertEqual(node["cpu"]?.line, 4)
        XCTAssertEqual(node["cpu"]?["format"]?.string, "{usage}% é😀")
        XCTAssertEqual(node["cpu"]?["interval"]?.numberText, "2")
    }

    func testJSONCRefusesBrokenInputWithItsLineAndNestsNoDeeperThan64() {
        XCTAssertThrowsError(try JSONCNode.parse("{\n\"a\": 1\n\"b\": 2}")) { error in
            XCTAssertEqual((error as? ImportError)?.line, 3)
        }
        XCTAssertThrowsError(try JSONCNode.parse("{\"a\": \"no end}")) { error in
            XCTAssertEqual((error as? ImportError)?.reason, "a string has no closing quote")
        }
        XCTAssertThrowsError(try JSONCNode.parse(String(repeating: "[", count: 100_000))) { error in
            XCTAssertEqual((error as? ImportError)?.reason, "nested deeper than 64 levels")
        }
    }

    // MARK: polybar (INI with references)

    func testPolybarResolvesReferencesInheritanceAndIncludes() throws {
        let main = """
            [colors]
            fg = #fff
            ; a comment
            [bar/top]
            modules-right = cpu date
            include-file = more.ini
            [module/base]
            label = "  base %percentage%%  "
            [module/cpu]
            inherit = module/base
            type = internal/cpu
            format-foreground = ${colors.fg}
            missing = ${colors.none:fallback}
            env = ${env:HOME_NOT_READ:/home/x}
            me = ${self.type}
            """
        let ini = try PolybarINI.parse(main) { $0 == "more.ini" ? "[module/date]\ntype = internal/date\n" : nil }
        XCTAssertEqual(ini.value("label", in: "module/cpu"), "  base %percentage%%  ")
        XCTAssertEqual(ini.value("format-foreground", in: "module/cpu"), "#fff")
        XCTAssertEqual(ini.value("missing", in: "module/cpu"), "fallback")
        XCTAssertEqual(ini.value("env", in: "module/cpu"), "/home/x")
        XCTAssertEqual(ini.value("me", in: "module/cpu"), "internal/cpu")
        XCTAssertEqual(ini.value("type", in: "module/date"), "internal/date")
        XCTAssertEqual(ini.line(of: "type", in: "module/date"), 6, "an included file's keys are told at the include-file line")
    }

    func testPolybarReferencesThatLoopEndInsteadOfHanging() throws {
        let ini = try PolybarINI.parse("[a]\nx = ${a.y}\ny = ${a.x}\n") { _ in nil }
        XCTAssertEqual(ini.value("x", in: "a"), "")
        XCTAssertThrowsError(try PolybarINI.parse("[a]\ninclude-file = a\n") { _ in "[a]\ninclude-file = a\n" }) { error in
            XCTAssertEqual((error as? ImportError)?.reason, "more than 16 included files")
        }
    }

    // MARK: formats

    func testEachFormatLanguageReadsItsPlaceholders() {
        XCTAssertEqual(i3statusTokens("%usage%%x %used", names: ["usage", "used"]),
                       [.placeholder("usage", spec: ""), .literal("%%x "), .placeholder("used", spec: "")])
        XCTAssertEqual(braceTokens("{{a}} {usage:2}% {:%H:%M} {mem_used;G}"),
                       [.literal("{a} "), .placeholder("usage", spec: ":2"), .literal("% "), .placeholder("", spec: ":%H:%M"),
                        .literal(" "), .placeholder("mem_used", spec: ";G")])
        XCTAssertEqual(dollarTokens(" ^icon_cpu $utilization.eng(w:2) {$a|$b} \\$x"),
                       [.literal(" "), .placeholder("^icon_cpu", spec: ""), .literal(" "), .placeholder("utilization", spec: ".eng(w:2)"),
                        .literal(" "), .placeholder("a", spec: ""), .literal(" $x")])
        XCTAssertEqual(polybarTokens("%percentage:2%% %{F#fff}"), [.placeholder("percentage", spec: ":2"), .literal("% %{F#fff}")])
        XCTAssertEqual(datetimeFormat(inSpec: ".datetime(f:'%a %R', l:fr_FR)"), "%a %R")
    }

    func testATranslationDoublesBracesDropsWhatItLacksAndTakesUnitsOff() {
        var missing: [String] = []
        let table = PlaceholderTable([("used", "{used}" + sizedMark), ("icon", "")])
        XCTAssertEqual(translate(braceTokens("{icon} {used:0.1f}GiB {nope} {{x}}"), table, missing: &missing), "{used} {{x}}")
        XCTAssertEqual(missing, ["nope"])
    }
}
