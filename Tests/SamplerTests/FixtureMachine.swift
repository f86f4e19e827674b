import Foundation
import XCTest
import TestSupport
@testable import Sampler

/// A sampler fixture case (`Tests/Fixtures/sampler-<case>/<n>/{proc,sys}`) as a live tree.
final class FixtureMachine {
    let name: String
    let tree: LiveTree
    var root: URL { tree.url }
    var procRoot: String { tree.url.appendingPathComponent("proc").path }
    var sysRoot: String { tree.url.appendingPathComponent("sys").path }

    init(_ name: String) throws {
        self.name = name
        tree = try LiveTree()
    }

    /// Makes the live root look like sample `n` of the fixture.
    func advance(to n: Int) throws { try tree.mirror("\(name)/\(n)") }
}

/// Replaces `from` with `to` in the file at `path`, in place (same inode: the sampler keeps
/// /proc/stat and /proc/loadavg open); fails the test when `from` is not there.
func rewrite(_ path: String, _ from: String, _ to: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    XCTAssertTrue(text.contains(from), path, file: file, line: line)
    guard let f = fopen(path, "w") else { throw POSIXError(.EIO) }
    defer { fclose(f) }
    fputs(text.replacingOccurrences(of: from, with: to), f)
}

extension FixtureMachine {
    /// Sample 1 of `sampler-desktop` and a configuration that reads it (no self figures, no
    /// built-in bookmarks), for a test to change either before it makes the sampler.
    static func desktopConfiguration() throws -> (SamplerConfiguration, FixtureMachine) {
        let machine = try FixtureMachine("sampler-desktop")
        var config = SamplerConfiguration()
        config.procRoot = machine.procRoot
        config.sysRoot = machine.sysRoot
        config.measureSelf = false
        config.builtinBookmarks = false
        try machine.advance(to: 1)
        return (config, machine)
    }

    /// A sampler on sample 1 of `sampler-desktop` (``desktopConfiguration()``).
    static func desktop() throws -> (Sampler, FixtureMachine) {
        let (config, machine) = try desktopConfiguration()
        return (Sampler(configuration: config), machine)
    }

    /// Adds `idle` ticks to /proc/stat's aggregate line and half to each core's: time passes.
    func advanceClock(idle: Int) throws {
        let path = procRoot + "/stat"
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let bumped = lines.map { line -> String in
            guard line.hasPrefix("cpu") else { return String(line) }
            var f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            f[4] = String(Int(f[4])! + (f[0] == "cpu" ? idle : idle / 2))
            return f[0] == "cpu" ? "cpu  " + f.dropFirst().joined(separator: " ") : f.joined(separator: " ")
        }
        guard let f = fopen(path, "w") else { throw POSIXError(.EIO) }
        defer { fclose(f) }
        fputs(bumped.joined(separator: "\n"), f)
    }
}
