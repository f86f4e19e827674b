import Foundation
import SnapshotCodec
import XCTest

/// The first day as a new user lives it, under real i3 and i3bar on Xvfb (issue "the first
/// day"): a config mistake never takes the bar away, a block asks the sampler for what it
/// shows, and the sampler a bar started ends with the session.
extension I3barClientTests {
    /// The i3bar arrays the status command printed so far (its stdout captured with tee).
    func arrays(_ stream: URL) -> [[[String: Any]]] {
        guard let text = try? String(contentsOf: stream, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let json = line.hasPrefix(",") ? String(line.dropFirst()) : String(line)
            return (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]]
        }
    }

    func waitForArray(_ stream: URL, seconds: Double, _ done: ([[String: Any]]) -> Bool) -> [[String: Any]]? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let last = arrays(stream).last, done(last) { return last }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    /// (a) A typo at start: the default blocks with the clock and an error block naming
    /// FILE:LINE:COL; the file fixed, the configured bar within a second; i3bar logs no error.
    func testUnderI3AConfigTypoAtStartShowsTheDefaultsAndTheMistakeThenTheFixedBar() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let configDir = dir.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: configDir, withIntermediateDirectories: false)
        let config = configDir.appendingPathComponent("config.toml")
        try Data("[[block]]\nblock = \"cpu\"\nfromat = \"{usage}\"\n\n[[block]]\nblock = \"time\"\n".utf8).write(to: config)
        let stream = dir.url.appendingPathComponent("stream")
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path) --config \(config.path) | tee \(stream.path)",
                                  display: 390 + Int(getpid() % 100), screen: "1280x600x24")
        let first = try XCTUnwrap(waitForArray(stream, seconds: 10) { !$0.isEmpty }, session.text)
        let text = first.map { $0["full_text"] as? String ?? "" }
        XCTAssertTrue(text[0].hasPrefix("config.toml:3:1: "), "the mistake first, with its place: \(text)")
        let names = first.dropFirst().compactMap { $0["name"] as? String }
        for name in ["load", "mem", "cpu", "time"] { XCTAssertTrue(names.contains(name), "default \(name): \(names)") }
        // The fixed file, written as an editor does (a new file renamed over the old).
        let edited = configDir.appendingPathComponent(".config.toml.swp")
        try Data("[[block]]\nblock = \"cpu\"\nformat = \"cpu {busy}%\"\n\n[[block]]\nblock = \"time\"\n".utf8).write(to: edited)
        let fixedAt = Date()
        XCTAssertEqual(rename(edited.path, config.path), 0)
        let fixed = waitForArray(stream, seconds: 5) { $0.compactMap { $0["name"] as? String } == ["cpu", "time"] }
        XCTAssertNotNil(fixed, "the configured bar: \(arrays(stream).last ?? [])")
        XCTAssertLessThan(Date().timeIntervalSince(fixedAt), 1.5, "within a second of the fix (plus the test's polling)")
        XCTAssertTrue(session.i3.isRunning)
        XCTAssertFalse(session.text.localizedCaseInsensitiveContains("error"), session.text)
    }

    /// (b) A `disk:` block for a path the sampler was not told about shows figures within
    /// two intervals, with no restart, and a path where nothing is says so; (c) once i3 and
    /// its bar are gone, the sampler the bar started stops within 70 s.
    func testUnderI3ADiskBlockIsMeasuredWithoutTellingTheSamplerAndTheSamplerEndsWithTheBar() throws {
        let dir = try RuntimeDir()
        let runtime = dir.path
        let tree = BarProcess.packageRoot.appendingPathComponent("Tests/Fixtures/sampler-desktop/1")
        let nowhere = "/nonexistent-sysstats-\(getpid())"
        let stream = dir.url.appendingPathComponent("stream")
        let command = "\(try BarProcess.binary()) --output i3bar --runtime-dir \(runtime) --blocks disk:\(runtime),disk:\(nowhere),procs"
            + " --sampler-option=--proc-root=\(tree.appendingPathComponent("proc").path)"
            + " --sampler-option=--sys-root=\(tree.appendingPathComponent("sys").path) --sampler-option=--no-history"
            + " | tee \(stream.path)"
        let session = try startI3(dir, statusCommand: command, display: 490 + Int(getpid() % 100), screen: "1280x600x24",
                                  environment: ["SYSSTATS_NO_START_SAMPLER": "0"])
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: runtime + "/snapshot") && Date() < deadline { usleep(50_000) }
        let firstSnapshot = Date()
        // A fixture /proc measures no mount by default: only the block's request brings these.
        let shown = waitForArray(stream, seconds: 6) { array in
            let text = array.map { $0["full_text"] as? String ?? "" }
            return text.count == 3 && text[0].hasSuffix(" free") && text[1] == "disk \(nowhere): no such mount"
        }
        XCTAssertNotNil(shown, "\(arrays(stream).last ?? []) \(session.text)")
        XCTAssertLessThanOrEqual(Date().timeIntervalSince(firstSnapshot), 2.5, "within two one-second intervals")
        XCTAssertFalse(session.text.localizedCaseInsensitiveContains("error"), session.text)

        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        let sampler = try XCTUnwrap(pids.first { pid in
            let args = ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()).split(separator: 0)
                .map { String(decoding: $0, as: UTF8.self) }
            return args.first?.hasSuffix("sysstatsd") == true && args.contains(runtime)
        }, "a sysstatsd for \(runtime)")
        // i3 goes (the session ends): i3bar and its status command with it.
        kill(session.i3.processIdentifier, SIGKILL)
        session.i3.waitUntilExit()
        let goneBy = Date().addingTimeInterval(70)
        while kill(sampler, 0) == 0 && Date() < goneBy { usleep(250_000) }
        XCTAssertNotEqual(kill(sampler, 0), 0, "the sampler the bar started is gone within 70 s")
        if kill(sampler, 0) == 0 { kill(sampler, SIGTERM) }
    }

    /// (d) The bar started before the config's folder exists (a new user's
    /// ~/.config/sysstats): the file created afterwards, a typo in it (an error block with
    /// FILE:LINE:COL) and its fix each show within a second, with no signal.
    func testUnderI3AConfigWrittenAfterTheBarStartedItsTypoAndItsFixEachShowWithinASecond() throws {
        let dir = try RuntimeDir()
        try dir.publish(sampleSnapshot(sequence: 1))
        let home = dir.url.appendingPathComponent("config-home")
        let configDir = home.appendingPathComponent("sysstats")
        let config = configDir.appendingPathComponent("config.toml")
        let stream = dir.url.appendingPathComponent("stream")
        let session = try startI3(dir, statusCommand: "\(try BarProcess.binary()) --output i3bar --runtime-dir \(dir.path) | tee \(stream.path)",
                                  display: 1200 + Int(getpid() % 100), screen: "1280x600x24",
                                  environment: ["XDG_CONFIG_HOME": home.path])
        XCTAssertNotNil(waitForArray(stream, seconds: 10) { !$0.isEmpty }, session.text)
        func names(_ array: [[String: Any]]) -> [String] { array.compactMap { $0["name"] as? String } }
        /// Writes `text` as an editor does (a new file renamed over the old) and waits for
        /// `done`; the seconds it took.
        func edit(_ text: String, _ done: @escaping ([[String: Any]]) -> Bool) throws -> TimeInterval? {
            let swap = configDir.appendingPathComponent(".config.toml.swp")
            try Data(text.utf8).write(to: swap)
            let at = Date()
            XCTAssertEqual(rename(swap.path, config.path), 0)
            return waitForArray(stream, seconds: 5, done).map { _ in Date().timeIntervalSince(at) }
        }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
        usleep(100_000)
        try FileManager.default.createDirectory(at: configDir, withIntermediateDirectories: false)
        let created = try edit("[[block]]\nblock = \"load\"\n\n[[block]]\nblock = \"time\"\n") { names($0) == ["load", "time"] }
        XCTAssertNotNil(created, "the new file's bar: \(arrays(stream).last ?? [])")
        XCTAssertLessThan(created ?? 9, 1.5, "within a second of the file (plus the test's polling)")
        let typo = try edit("[[block]]\nblok = \"load\"\n") { ($0.first?["full_text"] as? String)?.hasPrefix("config.toml:") == true }
        XCTAssertNotNil(typo, "the mistake: \(arrays(stream).last ?? [])")
        XCTAssertLessThan(typo ?? 9, 1.5)
        let fixed = try edit("[[block]]\nblock = \"mem\"\n") { names($0) == ["mem"] }
        XCTAssertNotNil(fixed, "the fixed file's bar: \(arrays(stream).last ?? [])")
        XCTAssertLessThan(fixed ?? 9, 1.5)
        XCTAssertTrue(session.i3.isRunning)
    }
}
