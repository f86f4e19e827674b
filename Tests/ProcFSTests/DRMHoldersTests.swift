import AllocationCounter
import Foundation
import ProcFS
import TestSupport
import XCTest

/// The processes holding DRM clients, found by listing their descriptors and read through
/// their fdinfo (Tests/Fixtures/gpu-clients: 200 an amdgpu client on two descriptors and a
/// second client, 300 an i915 client, 400 only a file, 401 no fd folder).
final class DRMHoldersTests: XCTestCase {
    let buffer = ReadBuffer(capacity: 4096)
    let pids: [Int32] = [1, 2, 200, 300, 400, 401, 999]

    func testTheFirstUpdateFindsEveryHolderAndCountsASharedClientOnce() {
        let holders = DRMHolders(procRoot: Fixtures.path("gpu-clients/proc"))
        holders.update(pids: pids, monotonicNs: 1_000_000_000, buffer: buffer)
        XCTAssertEqual(holders.uses.map(\.pid), [200, 300], "the holders; not the file's or the fd-less process")
        XCTAssertEqual(holders.uses[0].memoryBytes, (524_288 + 1_024) * 1024, "client 13 once (two descriptors), 14: vram only")
        XCTAssertEqual(holders.uses[1].memoryBytes, 80 << 20, "i915: drm-resident-system0")
        XCTAssertEqual(holders.uses.map(\.busyPermyriad), [0, 0], "busy needs two readings")
    }

    func testBusyIsTheBusiestEngineKindsShareOfTheIntervalOverItsCapacity() throws {
        let tree = try LiveTree()
        try tree.mirror("gpu-clients")
        let holders = DRMHolders(procRoot: tree.path + "/proc")
        holders.update(pids: pids, monotonicNs: 1_000_000_000, buffer: buffer)
        let amd = tree.path + "/proc/200/fdinfo/5"
        let text = try String(contentsOfFile: amd, encoding: .utf8)
            .replacingOccurrences(of: "drm-engine-gfx:\t4000000000 ns", with: "drm-engine-gfx:\t4250000000 ns")
        try text.write(toFile: amd, atomically: false, encoding: .utf8)
        let intel = tree.path + "/proc/300/fdinfo/7"
        let video = try String(contentsOfFile: intel, encoding: .utf8)
            .replacingOccurrences(of: "drm-engine-video:\t0 ns", with: "drm-engine-video:\t1500000000 ns")
        try video.write(toFile: intel, atomically: false, encoding: .utf8)
        holders.update(pids: pids, monotonicNs: 2_000_000_000, buffer: buffer)
        XCTAssertEqual(holders.uses.map(\.busyPermyriad), [2_500, 7_500],
                       "gfx 250 ms of 1 s; video 1.5 s over its 2 engines of 1 s")
    }

    func testAHolderWhoseDescriptorsAreGoneIsDroppedAndANewOneFoundWithinTheRescan() throws {
        let tree = try LiveTree()
        try tree.mirror("gpu-clients")
        let holders = DRMHolders(procRoot: tree.path + "/proc")
        holders.update(pids: pids, monotonicNs: 1_000_000_000, buffer: buffer)
        let fm = FileManager.default
        try "pos:\t0\nflags:\t0100002\n".write(toFile: tree.path + "/proc/300/fdinfo/7", atomically: false, encoding: .utf8)
        try fm.removeItem(atPath: tree.path + "/proc/200/fdinfo/9")
        try fm.createSymbolicLink(atPath: tree.path + "/proc/400/fd/4", withDestinationPath: "/dev/dri/renderD128")
        try fm.copyItem(atPath: tree.path + "/proc/200/fdinfo/6", toPath: tree.path + "/proc/400/fdinfo/4")
        holders.update(pids: pids, monotonicNs: 2_000_000_000, buffer: buffer)
        XCTAssertEqual(holders.uses.map(\.pid), [200], "300's only descriptor now a plain file's: dropped; 400 not listed again yet")
        XCTAssertEqual(holders.uses.first?.memoryBytes, 524_288 * 1024, "200's fd 9 closed: its client gone")
        for i in 3...DRMHolders.rescanSamples + 2 {
            holders.update(pids: pids, monotonicNs: UInt64(i) * 1_000_000_000, buffer: buffer)
        }
        XCTAssertEqual(holders.uses.map(\.pid), [200, 400], "listed again within the rescan")
    }

    func testAnUpdateOfKnownHoldersAllocatesNothing() {
        let holders = DRMHolders(procRoot: Fixtures.path("gpu-clients/proc"))
        for i in 1...3 { holders.update(pids: pids, monotonicNs: UInt64(i) * 1_000_000_000, buffer: buffer) }
        allocation_counter_start()
        for i in 4...40 { holders.update(pids: pids, monotonicNs: UInt64(i) * 1_000_000_000, buffer: buffer) }
        let allocations = allocation_counter_stop()
        XCTAssertEqual(allocations, 0, "37 updates (the listing of non-holders included) allocated \(allocations) times")
        XCTAssertEqual(holders.uses.count, 2)
    }
}

extension DRMHoldersTests {
    /// Sixty processes of 19,900 descriptors each stalled the sampler's first update for
    /// seconds (a readlink per descriptor, no cap): at most so many of a process's descriptors
    /// are looked at (4,096), at most so many in one update (8,192), and the listing goes on
    /// at the next. Here with caps of 64 and 128, over processes of 100 descriptors.
    func testTheDescriptorScanIsCappedPerProcessAndPerUpdateAndCarriesOn() throws {
        let tree = try LiveTree()
        let fm = FileManager.default
        var crowded: [Int32] = []
        for pid in 500..<506 {
            let fd = tree.path + "/proc/\(pid)/fd"
            try fm.createDirectory(atPath: fd, withIntermediateDirectories: true)
            // Five crowded processes, then one with ten descriptors that holds a client.
            for n in 0..<(pid < 505 ? 100 : 10) {
                try fm.createSymbolicLink(atPath: fd + "/\(n)", withDestinationPath: pid == 505 && n == 3 ? "/dev/dri/renderD128" : "/dev/null")
            }
            crowded.append(Int32(pid))
        }
        let holder = tree.path + "/proc/505"
        try fm.createDirectory(atPath: holder + "/fdinfo", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Fixtures.path("gpu-clients/proc/200/fdinfo/6"), toPath: holder + "/fdinfo/3")
        let holders = DRMHolders(procRoot: tree.path + "/proc", descriptorsPerProcess: 64, descriptorsPerUpdate: 128)
        var updates = 0
        while holders.uses.isEmpty && updates < 10 {
            updates += 1
            holders.update(pids: crowded, monotonicNs: UInt64(updates) * 1_000_000_000, buffer: buffer)
            XCTAssertLessThanOrEqual(holders.descriptorsLookedAt, 128, "update \(updates)")
        }
        XCTAssertEqual(holders.uses.map(\.pid), [505], "found once the scan reached it")
        XCTAssertEqual(updates, 5, "the first update lists what its budget allows (two crowded processes, 64 "
                       + "descriptors looked at each), the rest at the rescan's pace (one of six an update): the sixth in the fifth")
        let real = DRMHolders(procRoot: tree.path + "/proc")
        real.update(pids: crowded, monotonicNs: 1, buffer: buffer)
        XCTAssertEqual(real.uses.map(\.pid), [505], "the real caps list all six at once")
        XCTAssertEqual(real.descriptorsLookedAt, 510)
    }
}
