import XCTest
@testable import ProcFS

final class PidIndexTests: XCTestCase {
    func testFindsEveryPidItWasGivenAndNoOther() {
        var index = PidIndex()
        XCTAssertNil(index[1])
        // Scattered and neighbouring pids, past several doublings, up to pid_max.
        let pids: [Int32] = Array(1...3000) + [4_194_304, 65_536, 131_072, 262_144, Int32.max]
        for (i, pid) in pids.enumerated() { index.set(pid, i) }
        for (i, pid) in pids.enumerated() { XCTAssertEqual(index[pid], i, "pid \(pid)") }
        for pid: Int32 in [0, -1, 3001, 4_194_303, 65_537, Int32.min] { XCTAssertNil(index[pid], "pid \(pid)") }
    }

    func testSettingAPidAgainReplacesItsIndex() {
        var index = PidIndex()
        index.set(42, 1)
        index.set(42, 7)
        XCTAssertEqual(index[42], 7)
    }

    func testRemoveAllForgetsEveryPidAndTheIndexWorksAgain() {
        var index = PidIndex()
        for pid: Int32 in 1...100 { index.set(pid, Int(pid)) }
        index.removeAll()
        for pid: Int32 in 1...100 { XCTAssertNil(index[pid]) }
        index.set(5, 0)
        XCTAssertEqual(index[5], 0)
        XCTAssertNil(index[6])
    }
}
