import ArgumentParser
import Foundation
import SnapshotCodec
import SysstatsCLI
import XCTest

/// docs/reference.md's sysstats parts are what the code says: every command with its
/// abstract, and every member `report --json` writes, with its JSON type, read from the
/// report of a snapshot with every part (scripts/generate-manual.sh writes them).
final class CLIReferenceTests: XCTestCase {
    func testTheReferenceHasEveryCommandAndEveryReportJSONMemberAsTheCodeHasThem() throws {
        let differing = try ReferenceSections.differing([("sysstats commands", Self.commandsTable()),
                                                         ("report json", try Self.membersTable())])
        XCTAssertEqual(differing, [], "docs/reference.md differs from the code: run scripts/generate-manual.sh")
    }

    static func commandsTable() -> String {
        var out = "| command | what it does |\n|---|---|\n"
        func walk(_ command: ParsableCommand.Type, _ path: String) {
            for sub in command.configuration.subcommands {
                let name = path.isEmpty ? sub._commandName : path + " " + sub._commandName
                out += "| `sysstats \(name)` | \(ReferenceSections.cell(sub.configuration.abstract)) |\n"
                walk(sub, name)
            }
        }
        walk(SysstatsCommand.self, "")
        return out
    }

    /// Each member as a path (`memory_mib.free`, `network[].wifi.ssid`) with its JSON types
    /// over every entry of the lists (`string or null`: some entries have none).
    static func membersTable() throws -> String {
        let text = ReportJSON.format(Samples.laptopWithEveryPart, stale: false)
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        var order: [String] = [], types: [String: Set<String>] = [:]
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let members):
                for key in members.keys.sorted() {
                    let child = path.isEmpty ? key : path + "." + key
                    if types[child] == nil { order.append(child) }
                    types[child, default: []].insert(members[key]!.typeName)
                    walk(members[key]!, child)
                }
            case .list(let entries):
                for entry in entries { walk(entry, path + "[]") }
            default: break
            }
        }
        walk(json, "")
        var out = "| member | JSON type in a full report |\n|---|---|\n"
        for path in order.sorted() {
            let kinds = types[path]!.sorted { ($0 == "null" ? 1 : 0, $0) < ($1 == "null" ? 1 : 0, $1) }
            out += "| `\(path)` | \(kinds.joined(separator: " or ")) |\n"
        }
        return out
    }
}

/// Any JSON value, its type told apart as JSON tells it (`true` is no number).
enum JSONValue: Decodable {
    case null, boolean(Bool), number(Double), string(String), list([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .boolean(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let l = try? c.decode([JSONValue].self) { self = .list(l) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .boolean: "boolean"
        case .number: "number"
        case .string: "string"
        case .list: "list"
        case .object: "object"
        }
    }
}
