import PrometheusText
import Sampler
import TestSupport
import XCTest

/// docs/reference.md's sysstatsd parts are what the code says: the option table's `--help`
/// text, and every family the Prometheus export writes (from a snapshot with every part and
/// every counter) with its type and help (scripts/generate-manual.sh writes them).
final class SamplerReferenceTests: XCTestCase {
    func testTheReferenceHasTheSamplersOptionsAndEveryPrometheusFamilyAsTheCodeWritesThem() throws {
        let options = "```text\n" + SamplerOptions.usage + "```\n"
        let differing = try ReferenceSections.differing([("sysstatsd options", options), ("prometheus", Self.familiesTable())])
        XCTAssertEqual(differing, [], "docs/reference.md differs from the code: run scripts/generate-manual.sh")
    }

    /// One row per family: its name, type and help, in the order of the file.
    static func familiesTable() -> String {
        var help: [String: String] = [:], order: [String] = [], type: [String: String] = [:]
        for line in lines(format(fullSnapshot(), fullCounters())) where line.hasPrefix("# ") {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard words.count == 4 else { continue }
            if words[1] == "HELP" { order.append(words[2]); help[words[2]] = words[3] }
            if words[1] == "TYPE" { type[words[2]] = words[3] }
        }
        var out = "| family | type | what it is |\n|---|---|---|\n"
        for name in order {
            out += "| `\(name)` | \(type[name] ?? "?") | \(ReferenceSections.cell(help[name] ?? "")) |\n"
        }
        return out
    }
}
