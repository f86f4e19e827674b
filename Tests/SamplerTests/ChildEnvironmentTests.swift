import Foundation
import HistoryRecords
@testable import Sampler
import TestSupport
import XCTest

/// The environment the sampler's children start with: LD_LIBRARY_PATH without the empty and
/// relative entries through which the dynamic loader would load a library from the current
/// folder (issue 59: a `libnvidia-ml.so.1` planted in `/tmp` ran as the sampler's user).
final class ChildEnvironmentTests: XCTestCase {
    func cleaned(_ value: String) -> String? {
        ChildEnvironment.absoluteLibraryPath(Array(value.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    func testOnlyTheLibraryPathsEntriesFromTheRootAreKeptInTheirOrder() {
        let cases: [(String, String?)] = [
            ("::/a", "/a"), (":/a", "/a"), ("/a:", "/a"), ("/a::/b", "/a:/b"),
            (".", nil), ("lib", nil), ("", nil), (":", nil), ("::", nil),
            ("/a:./b:/c", "/a:/c"), ("../lib:/a", "/a"),
            (":/usr/local/cuda/lib64", "/usr/local/cuda/lib64"),
            ("$ORIGIN/lib:/opt/lib", "/opt/lib"),
            ("/a/../b:/usr/$LIB", "/a/../b:/usr/$LIB"),
            ("/a", "/a"), ("/", "/"),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(cleaned(value), expected, "LD_LIBRARY_PATH=\(value)")
        }
    }

    func testASemicolonSeparatesEntriesAsTheLoaderReadsIt() {
        // ld.so(8): "separated by either colons or semicolons".
        XCTAssertEqual(cleaned("/a;lib;/c"), "/a:/c")
        XCTAssertEqual(cleaned(";/a"), "/a")
        XCTAssertEqual(cleaned("/a;"), "/a")
        XCTAssertNil(cleaned(";"))
    }

    func testOnlyLDLibraryPathChangesAndIsDroppedWhenNothingIsLeft() {
        func filtered(_ entries: [String]) -> [String] {
            ChildEnvironment.filtered(entries.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
        }
        XCTAssertEqual(filtered(["HOME=/home/u", "LD_LIBRARY_PATH=:/usr/local/cuda/lib64", "LD_PRELOAD=libx.so", "PATH=/bin:."]),
                       ["HOME=/home/u", "LD_LIBRARY_PATH=/usr/local/cuda/lib64", "LD_PRELOAD=libx.so", "PATH=/bin:."])
        XCTAssertEqual(filtered(["A=1", "LD_LIBRARY_PATH=.", "B=2"]), ["A=1", "B=2"])
        XCTAssertEqual(filtered(["LD_LIBRARY_PATH="]), [])
        XCTAssertEqual(filtered(["LD_LIBRARY_PATH_EXTRA=:lib", "LD_LIBRARY_PATH", "XLD_LIBRARY_PATH=:"]),
                       ["LD_LIBRARY_PATH_EXTRA=:lib", "LD_LIBRARY_PATH", "XLD_LIBRARY_PATH=:"], "other names are not touched")
        XCTAssertEqual(filtered(["LD_LIBRARY_PATH=/a:/b"]), ["LD_LIBRARY_PATH=/a:/b"])
    }

    // MARK: the children as started

    var directory: TemporaryDirectory!
    private var savedLibraryPath: String?
    override func setUpWithError() throws {
        directory = try TemporaryDirectory("child-env")
        savedLibraryPath = getenv("LD_LIBRARY_PATH").map { String(cString: $0) }
        setenv("LD_LIBRARY_PATH", ":/usr/local/cuda/lib64:lib", 1)
    }
    override func tearDownWithError() throws {
        if let savedLibraryPath { setenv("LD_LIBRARY_PATH", savedLibraryPath, 1) } else { unsetenv("LD_LIBRARY_PATH") }
        directory = nil
    }

    /// A script that writes the LD_LIBRARY_PATH it was started with to `seen` (then `tail`).
    func recorder(_ tail: String) throws -> String {
        let path = directory.file("child")
        let seen = directory.file("seen")
        let script = "#!/bin/sh\nprintf '%s\\n' \"${LD_LIBRARY_PATH-unset}\" > \"\(seen).tmp\" && mv \"\(seen).tmp\" \"\(seen)\"\n\(tail)\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// What the child recorded, waiting up to 10 s for it.
    func seen() -> String? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: directory.file("seen"), encoding: .utf8) { return text }
            usleep(10_000)
        }
        return nil
    }

    func testTheHistoryWriterStartsWithoutTheEmptyAndRelativeLibraryPathEntries() throws {
        let handoff = HistoryHandoff(writerPath: try recorder("cat > /dev/null"), dataDirectory: directory.file("data"))
        handoff.reportLine = { _ in }
        let batch = HistoryBatch(bootID: "0f8c1a52-6d1e-4b7a-9c33-2e5f7d9a4b10", bootTime: 1_750_000_000, uptimeSeconds: 100,
                                 nowSeconds: 1_750_000_100, samples: [], exits: [], endsCleanly: false)
        XCTAssertNotNil(handoff.send(batch))
        while handoff.hasRunningWriters { handoff.reap(); usleep(1000) }
        XCTAssertEqual(seen(), "/usr/local/cuda/lib64\n")
    }

    func testTheNVIDIAHelperStartsWithoutTheEmptyAndRelativeLibraryPathEntries() throws {
        let helper = NVIDIAHelper(path: try recorder("exec sleep 60"), intervalMs: 1000)
        helper.reportLine = { _ in }
        helper.poll(nowNs: 1)
        defer { helper.stop() }
        XCTAssertEqual(helper.starts, 1)
        XCTAssertEqual(seen(), "/usr/local/cuda/lib64\n")
    }
}
