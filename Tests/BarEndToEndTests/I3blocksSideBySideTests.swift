import Foundation
import XCTest

/// The same blocklets under Debian's i3blocks (1.4) and under sysstats-bar, block by block,
/// where i3blocks 1.4 and 1.5 agree (issue 30): the plain output's three lines, no instance
/// unless given, the section's colour and i3bar keys, exit 33, a static full_text. Where
/// they differ (1.5 passes every key as a variable, shows a failed run's output, puts a label
/// before the text without 1.4's space) the in-process I3blocksCompatibilityTests pin 1.5's.
final class I3blocksSideBySideTests: XCTestCase {
    /// The blocklets, as an i3blocks config and as config.toml.
    static let i3blocksConfig = """
        [plain]
        command=echo "[$BLOCK_INSTANCE]"; echo short; echo "#00FF00"
        interval=once

        [disk]
        instance=/home
        command=echo "i=$BLOCK_INSTANCE"
        interval=once
        color=#FF0000
        min_width=100
        separator=false

        [urgent]
        command=echo bad; exit 33
        interval=once

        [time]
        full_text=click me
        command=echo clicked

        """

    static let toml = """
        [[block]]
        block = "command"
        name = "plain"
        command = 'echo "[$BLOCK_INSTANCE]"; echo short; echo "#00FF00"'
        interval = "once"

        [[block]]
        block = "command"
        name = "disk"
        instance = "/home"
        command = 'echo "i=$BLOCK_INSTANCE"'
        interval = "once"
        color = "#FF0000"
        min_width = 100
        separator = false

        [[block]]
        block = "command"
        name = "urgent"
        command = "echo bad; exit 33"
        interval = "once"

        [[block]]
        block = "command"
        name = "time"
        full_text = "click me"
        command = "echo clicked"

        """

    /// i3blocks' blocks once every block has run: the last array it printed within 2 s,
    /// without Debian 1.4's empty leading block and its `"":""` members.
    func i3blocksBlocks(_ dir: URL, config text: String = I3blocksSideBySideTests.i3blocksConfig) throws -> [[String: NSObject]] {
        let config = dir.appendingPathComponent("i3blocks.conf")
        try text.write(to: config, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/i3blocks")
        p.arguments = ["-c", config.path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = Pipe()
        try p.run()
        usleep(2_000_000)
        p.terminate()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let last = try XCTUnwrap(text.split(separator: "\n").last { $0.hasPrefix(",[") }, text)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.dropFirst().utf8)) as? [[String: NSObject]])
        return array.filter { $0["name"] != nil }.map { $0.filter { !$0.key.isEmpty } }
    }

    /// `sysstats-bar --once --output i3bar` with `config`: its first blocks are `expected`,
    /// key for key, and `more` blocks follow. Returns all of them.
    @discardableResult
    func assertSameBlocks(config: URL, dir: RuntimeDir, expected: [[String: NSObject]], more: Int = 0,
                          file: StaticString = #filePath, line: UInt = #line) throws -> [[String: NSObject]] {
        let once = try BarProcess.run(["--once", "--output", "i3bar", "--runtime-dir", dir.path, "--config", config.path])
        XCTAssertEqual(once.status, 0, once.stderr, file: file, line: line)
        let ours = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(once.stdout.utf8)) as? [[String: NSObject]], once.stdout,
                                 file: file, line: line)
        XCTAssertEqual(ours.count, expected.count + more, "\(ours)", file: file, line: line)
        for (mine, theirs) in zip(ours, expected) {
            XCTAssertEqual(mine, theirs, "block \(theirs["name"].map { "\($0)" } ?? "?")", file: file, line: line)
        }
        return ours
    }

    func testTheSameBlockletsGiveTheSameBlocksAsUnderI3blocks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3blocks") else {
            throw XCTSkip("i3blocks is not installed (install/deps.sh installs it)")
        }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let expected = try i3blocksBlocks(dir.url)
        XCTAssertEqual(expected.count, 4, "\(expected)")
        let config = dir.url.appendingPathComponent("config.toml")
        try Self.toml.write(to: config, atomically: true, encoding: .utf8)
        try assertSameBlocks(config: config, dir: dir, expected: expected)
    }

    /// The user's i3blocks file as it is, through `sysstats config import i3blocks`: with a
    /// global key (every section's default) and a section of fixed text, block for block
    /// what i3blocks shows.
    func testAnImportedI3blocksFileGivesTheSameBlocksAsI3blocks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3blocks") else {
            throw XCTSkip("i3blocks is not installed (install/deps.sh installs it)")
        }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let file = "separator_block_width=20\n\n" + Self.i3blocksConfig + "[sep]\nfull_text=|\ncolor=#666666\n"
        let expected = try i3blocksBlocks(dir.url, config: file)
        XCTAssertEqual(expected.count, 5, "\(expected)")
        let conf = dir.url.appendingPathComponent("i3blocks.conf")
        let sysstats = URL(fileURLWithPath: try BarProcess.binary()).deletingLastPathComponent().appendingPathComponent("sysstats").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: sysstats)
        p.arguments = ["config", "import", "i3blocks", conf.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let toml = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        let config = dir.url.appendingPathComponent("config.toml")
        try toml.write(to: config)
        try assertSameBlocks(config: config, dir: dir, expected: expected)
    }

    /// The user's i3blocks file named from config.toml (`block = "i3blocks"`, a path relative
    /// to config.toml): the same blocks as under i3blocks, between the file's own blocks.
    func testAnI3blocksFileNamedInConfigTomlGivesTheSameBlocksAsI3blocks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/i3blocks") else {
            throw XCTSkip("i3blocks is not installed (install/deps.sh installs it)")
        }
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let expected = try i3blocksBlocks(dir.url)
        let config = dir.url.appendingPathComponent("config.toml")
        try "[[block]]\nblock = \"i3blocks\"\nfile = \"i3blocks.conf\"\n\n[[block]]\nblock = \"load\"\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let ours = try assertSameBlocks(config: config, dir: dir, expected: expected, more: 1)
        XCTAssertEqual(ours.last?["name"] as? String, "load")
    }

    /// Editing the i3blocks file reloads the bar as editing config.toml does; a mistake in it
    /// is one block in the file's place, naming it by path and line (issue 58: it read as
    /// sysstats's own `config`), while config.toml's other blocks stay.
    func testAnEditOfTheI3blocksFileReloadsTheBar() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let i3blocks = dir.url.appendingPathComponent("blocks/config")
        try FileManager.default.createDirectory(at: i3blocks.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[a]\nfull_text=first\n".write(to: i3blocks, atomically: true, encoding: .utf8)
        let config = dir.url.appendingPathComponent("config.toml")
        try "[[block]]\nblock = \"i3blocks\"\nfile = \"\(i3blocks.path)\"\n\n[[block]]\nblock = \"procs\"\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let b = try BarProcess(["--output", "text", "--runtime-dir", dir.path, "--config", config.path])
        XCTAssertTrue(b.waitFor { $0.last?.hasPrefix("first | procs ") == true }, "\(b.lines)")
        try "[a]\nfull_text=second\n[b]\nfull_text=third\n".write(to: i3blocks, atomically: true, encoding: .utf8)
        XCTAssertTrue(b.waitFor(timeout: 2) { $0.last?.hasPrefix("second | third | procs ") == true }, "the edit at once: \(b.lines.suffix(2))")
        try "[a]\nfull_text=second\n  oops\n".write(to: i3blocks, atomically: true, encoding: .utf8)
        XCTAssertTrue(b.waitFor(timeout: 2) {
            $0.last?.hasPrefix("i3blocks \(i3blocks.path):3:1: not a comment") == true && $0.last?.contains(" | procs ") == true
        }, "the mistake in the file's place, config.toml's other block kept: \(b.lines.suffix(2))")
        XCTAssertEqual(b.stop(), 0)
    }

    /// Where Debian's i3blocks 1.4 and i3blocks 1.5 differ (a label without 1.4's space,
    /// every key and the globals in the environment, a failed run's output shown, JSON
    /// members fed back to the next run, the click's fields, a persistent block's click on
    /// its stdin, a block run by its signal), the bar gives what i3blocks 1.5 gave:
    /// Tests/Fixtures/i3blocks-1.5/golden.json, recorded by record.sh there, block for block
    /// and key for key, after the same clicks and SIGRTMIN+10.
    func testTheBlockletsWhere14And15DifferGiveWhatI3blocks15Gave() throws {
        let fixture = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/i3blocks-1.5")
        let golden = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.appendingPathComponent("golden.json")))
                                   as? [[String: NSObject]])
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot())
        let config = dir.url.appendingPathComponent("config.toml")
        try "[[block]]\nblock = \"i3blocks\"\nfile = \"\(fixture.appendingPathComponent("blocklets.conf").path)\"\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let bar = try BarProcess(["--output", "i3bar", "--runtime-dir", dir.path, "--config", config.path])
        usleep(1_000_000)
        let clicks = try String(contentsOf: fixture.appendingPathComponent("clicks"), encoding: .utf8)
        for line in clicks.split(separator: "\n") {
            bar.send(String(line) + "\n")
            usleep(700_000)
        }
        kill(bar.pid, __libc_current_sigrtmin() + 10)
        let matched = bar.waitFor(timeout: 5) { lines in
            guard let last = lines.last, let data = (last.hasPrefix(",") ? String(last.dropFirst()) : last).data(using: .utf8),
                  let array = try? JSONSerialization.jsonObject(with: data) as? [[String: NSObject]] else { return false }
            return array == golden
        }
        XCTAssertTrue(matched, "the last array: \(bar.lines.last ?? "none")\ngolden: \(golden)")
        XCTAssertEqual(bar.stop(), 0)
    }
}
