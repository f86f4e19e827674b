import Foundation
import SnapshotCodec
import SysstatsCLI
import BarCore
import XCTest

final class DoctorTests: XCTestCase {
    private let uid = geteuid()

    func testRuntimeDirWithMode0700OwnedByYouIsOK() throws {
        let dir = try TemporaryDirectory()
        let check = Doctor.checkRuntimeDirectory(dir.path, uid: uid)
        XCTAssertEqual(check, DoctorCheck(.ok, "runtime dir", "\(dir.path) (mode 0700, owned by you)"))
        XCTAssertEqual(check.line, "ok    runtime dir: \(dir.path) (mode 0700, owned by you)")
    }

    func testRuntimeDirOpenToOthersFailsAndSaysHowToFixIt() throws {
        let dir = try TemporaryDirectory()
        chmod(dir.path, 0o755)
        let check = Doctor.checkRuntimeDirectory(dir.path, uid: uid)
        XCTAssertEqual(check.status, .fail)
        XCTAssertEqual(check.detail, "\(dir.path) has mode 0755; it must be 0700 (chmod 700 \(dir.path))")
        XCTAssertEqual(Doctor.exitStatus([check]), 1)
    }

    func testRuntimeDirOwnedBySomeoneElseFails() throws {
        let dir = try TemporaryDirectory()
        let check = Doctor.checkRuntimeDirectory(dir.path, uid: uid &+ 1)
        XCTAssertEqual(check.status, .fail)
        XCTAssertEqual(check.detail, "\(dir.path) is owned by uid \(uid), not by you (uid \(uid &+ 1))")
    }

    func testRuntimeDirThatIsASymlinkFails() throws {
        let dir = try TemporaryDirectory()
        let link = dir.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.path)
        let check = Doctor.checkRuntimeDirectory(link, uid: uid)
        XCTAssertEqual(check.status, .fail)
        XCTAssertTrue(check.detail.contains("symbolic link"), check.detail)
    }

    func testMissingRuntimeDirIsOnlyAWarning() throws {
        let dir = try TemporaryDirectory()
        let check = Doctor.checkRuntimeDirectory(dir.file("absent"), uid: uid)
        XCTAssertEqual(check.status, .warn)
        XCTAssertEqual(Doctor.exitStatus([check]), 0)
    }

    func testFreshSnapshotIsOKWithItsSequenceAndAge() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Samples.laptop)
        XCTAssertEqual(Doctor.checkSnapshot(path: dir.file("snapshot"), nowMs: Samples.timestampMs + 400),
                       DoctorCheck(.ok, "snapshot", "sequence 42, 0.4 s old"))
    }

    func testStaleSnapshotWarns() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Samples.laptop)
        let check = Doctor.checkSnapshot(path: dir.file("snapshot"), nowMs: Samples.timestampMs + 185_000)
        XCTAssertEqual(check, DoctorCheck(.warn, "snapshot",
                                          "sequence 42, stale: 3 min 5 s old (interval 1 s); is sysstatsd running?"))
    }

    func testMissingOrCorruptSnapshotFails() throws {
        let dir = try TemporaryDirectory()
        XCTAssertEqual(Doctor.checkSnapshot(path: dir.file("snapshot"), nowMs: 0).status, .fail)
        try dir.write([1, 2, 3], to: "snapshot")
        let check = Doctor.checkSnapshot(path: dir.file("snapshot"), nowMs: 0)
        XCTAssertEqual(check.status, .fail)
        XCTAssertTrue(check.detail.hasPrefix("corrupt snapshot at "), check.detail)
    }

    func testModernKernelHasPressureStallAndMemAvailable() {
        let checks = Doctor.checkKernel(procRoot: Fixtures.path("sampler-desktop/1/proc"))
        XCTAssertEqual(checks.map(\.status), [.ok, .ok, .ok])
        XCTAssertEqual(checks.first?.detail, "6.1.0-13-amd64")
    }

    func testOldKernelWarnsAboutPressureAndMemAvailableButDoesNotFail() {
        let checks = Doctor.checkKernel(procRoot: Fixtures.path("sampler-server/1/proc"))
        XCTAssertEqual(checks.map(\.name), ["kernel", "memory pressure", "MemAvailable"])
        XCTAssertEqual(checks.map(\.status), [.ok, .warn, .warn])
        XCTAssertTrue(checks[1].detail.contains("older than 4.20"), checks[1].detail)
        XCTAssertTrue(checks[2].detail.contains("older than 3.14"), checks[2].detail)
        XCTAssertEqual(Doctor.exitStatus(checks), 0)
    }

    func testUnreadableKernelReleaseWarns() throws {
        let dir = try TemporaryDirectory()
        let checks = Doctor.checkKernel(procRoot: dir.path)
        XCTAssertEqual(checks[0].status, .warn)
        XCTAssertEqual(checks[1].status, .warn, "no pressure file")
        XCTAssertEqual(checks[2].status, .fail, "no meminfo")
    }

    func testNoBatteryIsADesktopAndThatIsFine() {
        let check = Doctor.checkBatteries(sysRoot: Fixtures.path("battery-desktop/sys"))
        XCTAssertEqual(check.status, .ok)
        XCTAssertTrue(check.detail.hasPrefix("none under "), check.detail)
        XCTAssertTrue(check.detail.hasSuffix("— a desktop, that's fine"), check.detail)
    }

    func testBatteriesAreCountedWithoutPeripherals() {
        let check = Doctor.checkBatteries(sysRoot: Fixtures.path("battery-charging/sys"))
        XCTAssertEqual(check.status, .ok)
        XCTAssertTrue(check.detail.hasPrefix("2 under "), check.detail)
    }

    func testDoctorRunsEveryCheckInOrderAndFailsOnlyWhenOneFails() throws {
        let dir = try TemporaryDirectory()
        var measured = Samples.laptop
        measured.available.formUnion([.network, .temperature, .frequency])
        try dir.write(measured)
        let noConfig = dir.path + "/none.toml"
        let checks = Doctor.run(runtimeDirectory: dir.path, procRoot: Fixtures.path("sampler-desktop/1/proc"),
                                sysRoot: Fixtures.path("sampler-desktop/1/sys"), configPath: noConfig,
                                nowMs: Samples.timestampMs + 1000, uid: uid)
        XCTAssertEqual(checks.map(\.name), ["runtime dir", "snapshot", "measured", "config", "kernel", "memory pressure",
                                            "MemAvailable", "batteries", "gpus"])
        XCTAssertEqual(checks.map(\.status), [.ok, .ok, .ok, .fail, .ok, .ok, .ok, .ok, .ok], "a config file named and missing fails")
        XCTAssertEqual(Doctor.exitStatus(checks), 1)
        try Data("[theme]\nna = \"-\"\n".utf8).write(to: URL(fileURLWithPath: noConfig))
        let fine = Doctor.run(runtimeDirectory: dir.path, procRoot: Fixtures.path("sampler-desktop/1/proc"),
                              sysRoot: Fixtures.path("sampler-desktop/1/sys"), configPath: noConfig,
                              nowMs: Samples.timestampMs + 1000, uid: uid)
        XCTAssertEqual(fine.map(\.status), [.ok, .ok, .ok, .ok, .ok, .ok, .ok, .ok, .ok])
        XCTAssertEqual(Doctor.exitStatus(fine), 0)
        chmod(dir.path, 0o750)
        let failing = Doctor.run(runtimeDirectory: dir.path, procRoot: Fixtures.path("sampler-desktop/1/proc"),
                                 sysRoot: Fixtures.path("sampler-desktop/1/sys"), configPath: noConfig,
                                 nowMs: Samples.timestampMs + 1000, uid: uid)
        XCTAssertEqual(Doctor.exitStatus(failing), 1)
    }

    func testGPUsNameTheSysfsCardsAndWhatAnNVIDIADeviceLacks() {
        let amd = Doctor.checkGPUs(procRoot: Fixtures.path("gpu-none/proc"), sysRoot: Fixtures.path("gpu-amdgpu/sys"))
        XCTAssertEqual(amd.status, .ok)
        XCTAssertEqual(amd.detail, "card0 amdgpu 1002:164e; card1 amdgpu AMD Radeon RX 6800")
        let none = Doctor.checkGPUs(procRoot: Fixtures.path("gpu-none/proc"), sysRoot: Fixtures.path("gpu-none/sys"))
        XCTAssertEqual(none.status, .ok)
        XCTAssertTrue(none.detail.hasPrefix("none with figures"), none.detail)
        let nvidia = Fixtures.path("gpu-nvidia/proc"), sys = Fixtures.path("gpu-nvidia/sys")
        let noHelper = Doctor.checkGPUs(procRoot: nvidia, sysRoot: sys, helper: "/nonexistent/sysstatsd-gpu")
        XCTAssertEqual(noHelper.status, .warn)
        XCTAssertEqual(noHelper.detail, "1 NVIDIA device, but no sysstatsd-gpu beside sysstatsd to read them (reinstall)")
        let noNVML = Doctor.checkGPUs(procRoot: nvidia, sysRoot: sys, helper: "/bin/true", library: "libnvidia-ml-absent.so.1")
        XCTAssertEqual(noNVML.status, .warn)
        XCTAssertTrue(noNVML.detail.contains("cannot be loaded: gpu shows n/a"), noNVML.detail)
        let fine = Doctor.checkGPUs(procRoot: nvidia, sysRoot: sys, helper: "/bin/true", library: "libc.so.6")
        XCTAssertEqual(fine.status, .ok)
        XCTAssertEqual(fine.detail, "1 NVIDIA device through NVML (libc.so.6)")
    }

    /// The bar shows `temp n/a` or `disk /home: no such mount`: doctor says so, not "all ok".
    func testWhatTheSnapshotLacksIsAWarningNamingTheBlockThatShowsNA() {
        var s = Samples.desktop
        s.available.formUnion([.network, .frequency, .disks])
        var home = DiskFigures()
        home.mount = Array("/home".utf8)
        home.markMissing()
        s.disks = [home]
        let check = Doctor.checkMeasured(s, sysRoot: "/sys", blocks: [BarBlock(.cpu), BarBlock(.temp)])
        XCTAssertEqual(check.status, .warn)
        XCTAssertEqual(check.detail, "no temperature (no sensor under /sys/class/hwmon or class/thermal; temp shows n/a); disk /home: no such mount")
    }

    /// The built-in bar hides an absent sensor (and Wi-Fi, a battery): doctor warns only about
    /// what the user's own bar would show as n/a.
    func testAPartOnlyAHidingBlockOrNoBlockShowsIsNoWarning() throws {
        var s = Samples.desktop
        s.available.formUnion([.network, .frequency])
        XCTAssertEqual(Doctor.checkMeasured(s, sysRoot: "/sys").status, .ok, "the built-in bar: temp hides")
        XCTAssertEqual(Doctor.checkMeasured(s, sysRoot: "/sys", blocks: [BarBlock(.cpu)]).status, .ok, "no temp block")
        let dir = try TemporaryDirectory()
        let file = dir.path + "/config.toml"
        try Data("[[block]]\nblock = \"temp\"\n".utf8).write(to: URL(fileURLWithPath: file))
        let own = Doctor.checkMeasured(s, sysRoot: "/sys", blocks: Doctor.barBlocks(configPath: file))
        XCTAssertEqual(own.status, .warn, "the user's temp block shows n/a: \(own.detail)")
        try Data("[[block]]\nblock = \"temp\"\nhide_missing = true\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(Doctor.checkMeasured(s, sysRoot: "/sys", blocks: Doctor.barBlocks(configPath: file)).status, .ok)
    }

    func testAConfigMistakeFailsWithItsPlace() throws {
        let dir = try TemporaryDirectory()
        let file = dir.path + "/config.toml"
        try Data("[[block]]\nblock = \"cpu\"\nfromat = \"x\"\n".utf8).write(to: URL(fileURLWithPath: file))
        let check = Doctor.checkConfig(path: file)
        XCTAssertEqual(check.status, .fail)
        XCTAssertTrue(check.detail.hasPrefix(file + ":3:1: "), check.detail)
    }
}
