import Foundation
import TestSupport
import XCTest

/// scripts/sizes.py, the size rule the test command checks on Sources (docs/architecture.md,
/// "Small units"): it names a file over 400 lines and a function over 80 (Swift or C) and
/// fails, and does not count braces in strings, comments or character literals.
final class SourceSizeRuleTests: XCTestCase {
    var directory: TemporaryDirectory!
    override func setUpWithError() throws { directory = try TemporaryDirectory("sizes") }
    override func tearDownWithError() throws { directory = nil }

    func sizes(_ arguments: [String] = []) throws -> Programs.Output {
        let script = Programs.packageRoot.appendingPathComponent("scripts/sizes.py").path
        return try Programs.capture("/usr/bin/env", ["python3", script] + arguments + [directory.path])
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory.path + "/" + name, atomically: true, encoding: .utf8)
    }

    func swiftFunction(_ name: String, bodyLines: Int) -> String {
        "    func \(name)() {\n" + String(repeating: "        x += 1\n", count: bodyLines) + "    }\n"
    }

    func testUnitsWithinTheLimitsPass() throws {
        try write("Small.swift", "struct S {\n" + swiftFunction("short", bodyLines: 78) + "}\n")
        try write("small.c", "static int f(int a,\n           int b) {\n" + String(repeating: "    a++;\n", count: 76) + "    return a;\n}\n")
        let result = try sizes()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    func testAFunctionOverEightyLinesFailsWithItsPlaceAndLength() throws {
        try write("Long.swift", "struct S {\n" + swiftFunction("short", bodyLines: 10) + swiftFunction("long", bodyLines: 79) + "}\n")
        let result = try sizes()
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "\(directory.path)/Long.swift:14 long: 81 lines (limit 80)\n")
    }

    func testACFunctionOverEightyLinesFails() throws {
        try write("long.c", "#include <stdio.h>\nint f(void);\n\nint f(void) {\n" + String(repeating: "    puts(\"}\");\n", count: 80) + "}\n")
        let result = try sizes()
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "\(directory.path)/long.c:4 f: 82 lines (limit 80)\n")
    }

    func testAFileOverFourHundredLinesFails() throws {
        try write("Big.swift", String(repeating: "// a line\n", count: 401))
        let result = try sizes()
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "\(directory.path)/Big.swift: 401 lines (limit 400)\n")
    }

    func testBracesInStringsCommentsAndCharactersDoNotEndOrExtendAFunction() throws {
        // Each body line opens a brace the counter must not see; were it seen, the function
        // would run to the end of the file and over the limit.
        let body = "        let a = \"{\" // {\n        /* { */ let b = \"\"\"\n        {\n        \"\"\"\n"
        try write("Strings.swift", "struct S {\n    func f() {\n" + String(repeating: body, count: 10) + "    }\n"
                  + String(repeating: "// after\n", count: 100) + "}\n")
        try write("chars.c", "int g(void) {\n    char c = '{';\n    return c;\n}\n" + String(repeating: "/* after */\n", count: 100))
        let result = try sizes()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try sizes(["--max-function-lines", "3"]).stdout,
                       "\(directory.path)/Strings.swift:2 f: 42 lines (limit 3)\n\(directory.path)/chars.c:1 g: 4 lines (limit 3)\n")
    }
}
