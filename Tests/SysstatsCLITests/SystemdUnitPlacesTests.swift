import Foundation
import XCTest

/// Where each install puts the systemd user unit is said in prose twice, in the unit's own
/// opening comment and in docs/integrations.md; the packaged unit's comment once sent a .deb
/// user to ~/.config/systemd/user/ (issue 58). Each script's line that writes the unit is
/// pinned here beside the path its users read, so a script that moves the unit fails here
/// until this table, the comment and the document follow.
final class SystemdUnitPlacesTests: XCTestCase {
    static let places: [(script: String, line: String, path: String)] = [
        ("install/package.sh", #"packaged_unit /usr/bin > "$deb_root/usr/lib/systemd/user/sysstatsd.service""#,
         "/usr/lib/systemd/user/sysstatsd.service"),
        ("install/package.sh", #"packaged_unit @BINDIR@ > "$tar_root/share/systemd/user/sysstatsd.service""#,
         "PREFIX/share/systemd/user/sysstatsd.service"),
        ("install/install.sh", #"mv -f "$config/systemd/user/sysstatsd.service.tmp" "$config/systemd/user/sysstatsd.service""#,
         "~/.config/systemd/user/sysstatsd.service"),
    ]

    func text(_ file: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(file), encoding: .utf8)
    }

    func testTheUnitsCommentAndTheIntegrationsSayWhereEachInstallPutsTheUnit() throws {
        let comment = try text("assets/sysstatsd.service").components(separatedBy: "\n").prefix { $0.hasPrefix("#") }
            .joined(separator: "\n")
        let integrations = try text("docs/integrations.md")
        let section = try XCTUnwrap(integrations.components(separatedBy: "\n## systemd user unit\n").dropFirst().first?
            .components(separatedBy: "\n## ").first, "docs/integrations.md has no systemd section")
        for place in Self.places {
            XCTAssertTrue(try text(place.script).contains("\n" + place.line + "\n"),
                          "\(place.script) no longer writes the unit with `\(place.line)`: update this table, the unit's comment and docs/integrations.md")
            XCTAssertTrue(comment.contains(place.path), "assets/sysstatsd.service's opening comment does not say \(place.path)")
            XCTAssertTrue(section.contains(place.path), "docs/integrations.md's systemd section does not say \(place.path)")
        }
        XCTAssertTrue(comment.contains("systemctl --user enable --now sysstatsd"), comment)
    }
}
