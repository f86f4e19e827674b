import MemoryBudget
import TOML
import XCTest

/// What parsing costs in memory, the largest documents of the shapes that cost the most per
/// byte: a config file is outside input, and the renderer and the sampler parse it within
/// their budgets (docs/budgets.md, "Budgets inside a test suite").
final class TOMLMemoryTests: XCTestCase {
    /// 64 KiB of a shape, repeated until the file is full.
    private func fill(_ unit: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let u = Array(unit.utf8)
        var i = 0
        while bytes.count + u.count + 16 <= TOMLDocument.maximumSize {
            bytes += Array(unit.replacingOccurrences(of: "N", with: "\(i)").utf8)
            i += 1
        }
        return bytes
    }

    func testTheCostliestShapesOf64KiBParseWithinTwoMiBOfPeak() throws {
        let shapes = [("keys", fill("kN = 1\n")), ("array of tables", fill("[[t]]\n")), ("tables", fill("[tN]\n")),
                      ("inline tables", fill("iN = {a={b={}}}\n")), ("small arrays", fill("aN = [[],[],[]]\n"))]
        for (name, bytes) in shapes {
            let document = try XCTAssertMemory(MemoryLimits(peakGrowth: 2 << 20, anonGrowth: 2 << 20)) { try TOMLDocument.parse(bytes) }
            let (_, use) = try MemoryBudget.measure { try TOMLDocument.parse(bytes) }
            print("TOML \(name), \(bytes.count) bytes: peak grew \(MemoryBudget.format(use.peakGrowth)), kept \(MemoryBudget.format(use.anonGrowth))")
            XCTAssertFalse(document.root.isEmpty, name)
        }
    }
}
