import Bookmarks
import ProcFS
import SystemDirs

/// The units part's names beyond the unit's own (docs/metrics.md, "Units"), as `sysstats
/// top --units` gives them: the user's bookmark rule first, then the app's desktop file,
/// then an imported or built-in rule. A container, a session and the system's own scopes
/// are not programs a rule names.
final class SamplerUnitNamer: UnitNamer {
    let rules: RulesWatcher
    let desktop: DesktopEntryNames

    init(rules: RulesWatcher,
         desktop: DesktopEntryNames = DesktopEntryNames(home: environmentValue("HOME"), dataHome: environmentValue("XDG_DATA_HOME"),
                                                        dataDirs: environmentValue("XDG_DATA_DIRS"))) {
        self.rules = rules
        self.desktop = desktop
    }

    var generation: UInt32 { rules.generation }

    func name(kind: UnitKind, bare: [UInt8], appID: Range<Int>?, name: inout [UInt8]) {
        guard kind == .app || kind == .service else { return }
        // A rule matches the app's short id or the service's name as a program's name, and
        // the unit's own name as its command line.
        var ruled: [UInt8] = []
        let resolver = rules.resolver
        let found = name.withUnsafeBytes { key in
            bare.withUnsafeBytes { line in resolver.resolveRule(comm: key, executable: key, commandLine: line, into: &ruled) }
        }
        let byRule = found.flatMap { ruled.isEmpty ? nil : (ruled, resolver.rules[$0.index].source == .user) }
        if let byRule, byRule.1 { name = byRule.0; return }
        if let appID, let desktop = desktop.name(of: bare[appID]) { name = desktop; return }
        if let byRule { name = byRule.0 }
    }
}
