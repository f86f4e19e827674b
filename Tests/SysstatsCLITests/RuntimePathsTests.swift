import SysstatsCLI
import XCTest

final class RuntimePathsTests: XCTestCase {
    func testRuntimeDirOptionWinsOverEverything() {
        XCTAssertEqual(RuntimePaths.runtimeDirectory(option: "/srv/stats", xdgRuntimeDir: "/run/user/1000", uid: 1000),
                       "/srv/stats")
    }

    func testAbsoluteXDGRuntimeDirGetsASysstatsSubdirectory() {
        XCTAssertEqual(RuntimePaths.runtimeDirectory(option: nil, xdgRuntimeDir: "/run/user/1000", uid: 1000),
                       "/run/user/1000/sysstats")
        XCTAssertEqual(RuntimePaths.runtimeDirectory(option: nil, xdgRuntimeDir: "/run/user/1000/", uid: 1000),
                       "/run/user/1000/sysstats")
    }

    func testUnsetEmptyOrRelativeXDGRuntimeDirFallsBackToTmpWithTheUid() {
        XCTAssertEqual(RuntimePaths.runtimeDirectory(option: nil, xdgRuntimeDir: nil, uid: 1000), "/tmp/sysstats-1000")
        XCTAssertEqual(RuntimePaths.runtimeDirectory(option: nil, xdgRuntimeDir: "", uid: 1000), "/tmp/sysstats-1000")
        XCTAssertEqual(RuntimePaths.runtimeDirectory(option: nil, xdgRuntimeDir: "run/user/1000", uid: 0), "/tmp/sysstats-0")
    }

    func testSnapshotIsNamedSnapshotInsideTheRuntimeDir() {
        XCTAssertEqual(RuntimePaths.snapshotPath(in: "/tmp/sysstats-1000"), "/tmp/sysstats-1000/snapshot")
    }
}
