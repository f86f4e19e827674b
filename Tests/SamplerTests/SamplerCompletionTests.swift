import Sampler
import TestSupport
import XCTest

/// The bash, zsh and fish completions of sysstatsd offer every long option of its table, and
/// no other.
final class SamplerCompletionTests: XCTestCase {
    func testEveryShellCompletesEveryOptionOfTheTableAndNoOther() throws {
        XCTAssertEqual(try CompletionFiles(program: "sysstatsd").differences(from: SamplerOptions.table), [])
    }
}
