import Foundation
import ProcFS
import TestSupport
import XCTest
@testable import Sampler

/// The units part's names in the sampler (issue 63): as `top --units` gives them, the app's
/// desktop file before a built-in rule, a built-in rule before the unit's own name; a
/// container keeps its runtime and id. The reader names them anew when the rules change.
final class UnitNamerTests: XCTestCase {
    func named(_ unit: String, _ namer: SamplerUnitNamer) -> String {
        var name: [UInt8] = [], bare: [UInt8] = []
        let (kind, id) = Array(unit.utf8).withUnsafeBytes { UnitNaming.describe($0, name: &name, bare: &bare) }
        namer.name(kind: kind, bare: bare, appID: id, name: &name)
        return String(decoding: name, as: UTF8.self)
    }

    func testTheDesktopFileThenABuiltInRuleThenTheUnitsOwnName() throws {
        let data = try TemporaryDirectory("unit-namer")
        try data.rewrite("[Desktop Entry]\nName[fr]=Navigateur\nName=Firefox Web Browser\n", "applications/firefox.desktop")
        let desktop = DesktopEntryNames(home: "/nonexistent", dataHome: data.path, dataDirs: "/nonexistent")
        let namer = SamplerUnitNamer(rules: RulesWatcher(path: nil, builtins: true), desktop: desktop)
        XCTAssertEqual(named("app-firefox-1234.scope", namer), "Firefox Web Browser", "the desktop file")
        XCTAssertEqual(named("pipewire.service", namer), "PipeWire", "a built-in rule")
        XCTAssertEqual(named("app-gnome-org.gnome.Terminal-4242.scope", namer), "Terminal", "neither: the id's last part")
        XCTAssertEqual(named("docker-3f2a1b9c8d7e6f5a4b3c2d1e.scope", namer), "docker 3f2a1b9c8d7e", "no rule names a container")
        let plain = SamplerUnitNamer(rules: RulesWatcher(path: nil, builtins: false), desktop: DesktopEntryNames(home: "/nonexistent", dataHome: nil, dataDirs: "/nonexistent"))
        XCTAssertEqual(named("pipewire.service", plain), "pipewire")
    }
}
