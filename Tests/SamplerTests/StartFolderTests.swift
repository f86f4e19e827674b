import Foundation
@testable import Sampler
import XCTest

/// sysstatsd leaves the folder it was started in (issue 59); a relative path on its command
/// line is first made absolute from that folder, so that it means what the user typed.
final class StartFolderTests: XCTestCase {
    func absolute(_ arguments: [String], folder: String?) -> Result<[String], OptionsError> {
        StartFolder.absolutePaths(arguments.map { Array($0.utf8) }, folder: folder.map { Array($0.utf8) })
            .map { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    func testEachRelativePathMeansTheStartFolderInBothSpellings() throws {
        let given = ["--runtime-dir", "run", "--data-dir=data", "--config", "./sysstats.toml", "--proc-root", "../fixture/proc",
                     "--sys-root=sys", "--textfile-dir", "tf", "--once"]
        XCTAssertEqual(try absolute(given, folder: "/home/u/work").get(),
                       ["--runtime-dir", "/home/u/work/run", "--data-dir=/home/u/work/data", "--config", "/home/u/work/./sysstats.toml",
                        "--proc-root", "/home/u/work/../fixture/proc", "--sys-root=/home/u/work/sys", "--textfile-dir", "/home/u/work/tf",
                        "--once"])
        XCTAssertEqual(try absolute(["--runtime-dir", "run"], folder: "/").get(), ["--runtime-dir", "/run"], "no doubled slash")
    }

    func testAbsolutePathsAndValuesThatAreNotPathsAreLeftAsGiven() throws {
        let given = ["--runtime-dir", "/run/user/1000/sysstats", "--sensor", "coretemp", "--net", "wlan0", "--interval", "0.5",
                     "--disk", "/", "--freed-threshold=4", "--exit-when-unwatched", "60", "--textfile-interval", "15"]
        XCTAssertEqual(try absolute(given, folder: "/tmp").get(), given)
        XCTAssertEqual(try absolute(given, folder: nil).get(), given, "nothing relative: no start folder needed")
    }

    func testACommandLineTheParserRefusesIsLeftForItToSayWhy() throws {
        for given in [["--runtime-dir", ""], ["--runtime-dir"], ["--bogus", "--runtime-dir", "run"], ["--once=yes", "--data-dir", "d"],
                      ["--disk", "home"]] {
            XCTAssertEqual(try absolute(given, folder: "/tmp").get(), given, "\(given)")
            XCTAssertEqual(try absolute(given, folder: nil).get(), given, "\(given)")
        }
        XCTAssertEqual(try absolute(["--data-dir", "d", "--bogus", "--runtime-dir", "run"], folder: "/w").get(),
                       ["--data-dir", "/w/d", "--bogus", "--runtime-dir", "run"], "up to the refused argument")
    }

    func testARelativePathWithoutAStartFolderIsRefusedNotTakenFromTheRoot() {
        guard case .failure(let error) = absolute(["--once", "--runtime-dir", "run\u{1B}[2J"], folder: nil) else {
            return XCTFail("a relative path without a start folder was accepted")
        }
        XCTAssertEqual(error.description,
                       "cannot tell where the relative path 'run\\x1b[2J' is: the current folder has no name (give an absolute path)")
    }

    func testTheCurrentFolderIsItsPathFromTheRoot() {
        XCTAssertEqual(StartFolder.current().map { String(decoding: $0, as: UTF8.self) }, FileManager.default.currentDirectoryPath)
    }
}
