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

    func testRemovingPidsKeepsEveryOtherFindableWhateverTheCollisions() {
        var index = PidIndex()
        var reference: [Int32: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        // Dense neighbouring pids and a small table: long runs, so removal must shift entries back.
        for step in 0..<20_000 {
            let pid = Int32.random(in: 1...300, using: &generator)
            if Bool.random(using: &generator) {
                index.set(pid, step)
                reference[pid] = step
            } else {
                index.remove(pid)
                reference[pid] = nil
            }
            if step % 97 == 0 {
                for candidate in Int32(1)...300 { XCTAssertEqual(index[candidate], reference[candidate], "pid \(candidate) at step \(step)") }
            }
        }
        index.remove(12_345)   // absent: nothing happens
        for candidate in Int32(1)...300 { XCTAssertEqual(index[candidate], reference[candidate]) }
    }
}
