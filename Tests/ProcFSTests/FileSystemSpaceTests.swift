import Foundation
import XCTest
import ProcFS

final class FileSystemSpaceTests: XCTestCase {
    func testDfArithmeticOnKnownNumbers() {
        // A 100 GiB ext4 volume of 4 KiB blocks: 5 % reserved for root.
        // used = 26214400 − 10000000 = 16214400 blocks; avail 8689280;
        // Use% = ⌈16214400 × 100 / 24903680⌉ = ⌈65.1084…⌉ = 66 (df), 6510.84… → 6511.
        let u = FileSystemSpace.compute(blocks: 26_214_400, bfree: 10_000_000, bavail: 8_689_280, frsize: 4096)
        XCTAssertEqual(u, FileSystemUsage(totalKiB: 104_857_600, usedKiB: 64_857_600,
                                          availableKiB: 34_757_120, usedPermyriad: 6511))
    }

    func testAnExactPercentIsNotRoundedUp() {
        // used 1000, avail 3000 → exactly 25 %.
        let u = FileSystemSpace.compute(blocks: 5000, bfree: 4000, bavail: 3000, frsize: 1024)
        XCTAssertEqual(u.usedPermyriad, 2500)
        XCTAssertEqual(u.usedKiB, 1000)
        XCTAssertEqual(u.availableKiB, 3000)
        XCTAssertEqual(u.totalKiB, 5000)
    }

    func testSizesRoundUpToWholeKiBAsDfDoes() {
        // 512-byte blocks: 3 blocks = 1.5 KiB → df -k shows 2.
        let u = FileSystemSpace.compute(blocks: 3, bfree: 2, bavail: 1, frsize: 512)
        XCTAssertEqual(u.totalKiB, 2)
        XCTAssertEqual(u.usedKiB, 1)
        XCTAssertEqual(u.availableKiB, 1)
        XCTAssertEqual(u.usedPermyriad, 5000)
    }

    func testFullEmptyAndPseudoFileSystems() {
        XCTAssertEqual(FileSystemSpace.compute(blocks: 100, bfree: 5, bavail: 0, frsize: 4096).usedPermyriad, 10000)
        XCTAssertEqual(FileSystemSpace.compute(blocks: 100, bfree: 100, bavail: 95, frsize: 4096).usedPermyriad, 0)
        XCTAssertEqual(FileSystemSpace.compute(blocks: 0, bfree: 0, bavail: 0, frsize: 4096), FileSystemUsage())
        // One block in a million used: still rounds up to 0.01 %.
        XCTAssertEqual(FileSystemSpace.compute(blocks: 1_000_000, bfree: 999_999, bavail: 999_999, frsize: 4096)
            .usedPermyriad, 1)
    }

    func testHostileFieldsSaturateAndNeverTrap() {
        let u = FileSystemSpace.compute(blocks: .max, bfree: 0, bavail: .max, frsize: .max)
        XCTAssertEqual(u.totalKiB, .max)
        XCTAssertEqual(u.usedKiB, .max)
        XCTAssertEqual(u.availableKiB, .max)
        XCTAssertEqual(u.usedPermyriad, 5000)
        // More free than there are blocks: used is 0, not a wrapped huge number.
        let odd = FileSystemSpace.compute(blocks: 10, bfree: 20, bavail: 20, frsize: 1024)
        XCTAssertEqual(odd.usedKiB, 0)
        XCTAssertEqual(odd.usedPermyriad, 0)
        // A zero fragment size (update() uses the block size then): no bytes, the ratio still holds.
        let noSize = FileSystemSpace.compute(blocks: 10, bfree: 0, bavail: 0, frsize: 0)
        XCTAssertEqual([noSize.totalKiB, noSize.usedKiB, noSize.availableKiB], [0, 0, 0])
        XCTAssertEqual(noSize.usedPermyriad, 10000)
    }

    func testMissingPathGivesNil() {
        XCTAssertNil(FileSystemSpace(path: "/nonexistent-sysstats-fixture-root").update())
        XCTAssertNil(FileSystemSpace(path: "/tmp\0/x").update(), "a NUL in the path is refused, not cut")
    }

    /// statvfs cannot be faked: compare the root file system with `df -k /` run now.
    func testRootFileSystemMatchesDf() throws {
        let reading = try XCTUnwrap(FileSystemSpace(path: "/").update())
        let df = Process()
        df.executableURL = URL(fileURLWithPath: "/bin/df")
        df.arguments = ["-k", "-P", "/"]
        df.environment = ["LC_ALL": "C"]
        let pipe = Pipe()
        df.standardOutput = pipe
        try df.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        df.waitUntilExit()
        // "Filesystem 1024-blocks Used Available Capacity Mounted on" then the numbers.
        let fields = try XCTUnwrap(output.split(separator: "\n").last).split(separator: " ")
        let total = try XCTUnwrap(UInt64(fields[1])), used = try XCTUnwrap(UInt64(fields[2]))
        let available = try XCTUnwrap(UInt64(fields[3]))
        let percent = try XCTUnwrap(UInt16(fields[4].dropLast()))
        XCTAssertEqual(reading.totalKiB, total)
        // Other builds write to the disk between the two calls: allow 256 MiB of drift.
        XCTAssertLessThanOrEqual(max(reading.usedKiB, used) - min(reading.usedKiB, used), 262_144)
        XCTAssertLessThanOrEqual(max(reading.availableKiB, available) - min(reading.availableKiB, available), 262_144)
        let ours = (reading.usedPermyriad + 99) / 100  // whole percent, rounded up as df does
        XCTAssertLessThanOrEqual(max(ours, percent) - min(ours, percent), 1)
    }
}
