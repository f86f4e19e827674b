#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import SysstatsCLI
import TestSupport
import XCTest

/// One entry per process for its whole life (issue 49, item 3), on a fixture /proc whose
/// root is this test's own pid (the sampler follows the descendants of the measuring process).
final class TreeSamplerTests: XCTestCase {
    var root: TemporaryDirectory!
    let me = getpid(), child: Int32 = 90_001

    override func setUpWithError() throws {
        root = try TemporaryDirectory("tree-sampler")
        try put("\(child) ", "\(me)/task/\(me)/children")
        try write(child, stat: "S", statm: "2048 512 128 0 0 0 0")
        try put("Rss: 2048 kB\nPss: 1024 kB\nPrivate_Clean: 0 kB\nPrivate_Dirty: 512 kB\nSwap: 0 kB\n", "\(child)/smaps_rollup")
        try put("Name:\tchild\nTgid:\t\(child)\nVmHWM:\t2048 kB\n", "\(child)/status")
        try loadavg(newest: child)
    }

    /// `text` into `name` under the root, in place (the sampler keeps statm open, as on /proc).
    func put(_ text: String, _ name: String) throws {
        let path = root.file(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0, path)
        defer { close(fd) }
        XCTAssertEqual(text.utf8.count, Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) })
    }

    func write(_ pid: Int32, stat state: String, statm: String) throws {
        // Fields 4 (ppid) to 22 (start time): ppid, nine zeros, utime 3, stime 4, …, 20 threads 1, 22 start time 777.
        let fields = "\(me) 0 0 0 0 0 0 0 0 0 3 4 0 0 20 0 1 0 777"
        try put("\(pid) (child) \(state) \(fields)\n", "\(pid)/stat")
        try put("\(statm)\n", "\(pid)/statm")
    }

    func loadavg(newest: Int32) throws { try put("0.00 0.00 0.00 1/100 \(newest)\n", "loadavg") }

    /// A process whose statm read zeros while it exited, then was read again, was dropped and
    /// added as a second process (2 to 8 reported for one).
    func testAProcessReadAsGoneThenSeenAgainKeepsItsOneEntry() throws {
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        XCTAssertEqual(recording.processes.map(\.pid), [child])
        try write(child, stat: "S", statm: "0 0 0 0 0 0 0")
        sampler.sample(into: &recording, atMs: 10)
        try write(child, stat: "S", statm: "2048 512 128 0 0 0 0")
        sampler.sample(into: &recording, atMs: 20)
        XCTAssertEqual(recording.processes.map(\.pid), [child], "one entry for its whole life")
        XCTAssertEqual(recording.processes.first?.values.count, 2, "its samples: \(recording.sampleTimesMs)")
    }

    /// A child created between the loadavg read and the walk was found by the walk and then
    /// admitted again at the next sample (its pid is in the new range): counted twice.
    func testAChildFoundByAWalkIsNotAdmittedAgain() throws {
        try loadavg(newest: child - 1)
        let sampler = TreeSampler(procRoot: root.path, intervalMs: 10)
        var recording = Recording()
        sampler.sample(into: &recording, atMs: 0)
        try loadavg(newest: child)
        sampler.sample(into: &recording, atMs: 10)
        XCTAssertEqual(recording.processes.map(\.pid), [child])
        XCTAssertEqual(sampler.liveCount, 1)
    }
}
