import BarCore
import TestSupport
import XCTest

/// The bash, zsh and fish completions of sysstats-bar offer what the program has: every long
/// option of its table, every block `--blocks` takes (the registry's), every `--output`.
final class BarCompletionTests: XCTestCase {
    func testEveryShellCompletesEveryOptionOfTheTableAndNoOther() throws {
        XCTAssertEqual(try CompletionFiles(program: "sysstats-bar").differences(from: BarOptions.table), [])
    }

    func testEveryShellCompletesEveryBlockOfTheRegistry() throws {
        let blocks = BlockKind.allCases.filter { $0.isNamedInBlocksOption }.map { "\($0.name)" }
        let files = try CompletionFiles(program: "sysstats-bar")
        for (shell, text) in files.texts {
            XCTAssertEqual(files.words(shell, text, list: "blocks"), blocks, shell)
        }
    }

    func testEveryShellCompletesEveryOutput() throws {
        // `png:FILE` is completed as `png:`, its file left to the user.
        let outputs = OutputKind.allCases.map { $0 == .png ? "png:" : "\($0.name)" }
        let files = try CompletionFiles(program: "sysstats-bar")
        for (shell, text) in files.texts {
            XCTAssertEqual(Set(files.words(shell, text, list: "--output")), Set(outputs), shell)
        }
    }
}
