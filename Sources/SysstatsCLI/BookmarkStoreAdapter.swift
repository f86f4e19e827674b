// The CLI's one seam onto the bookmark storage of HistoryStore (Sources/HistoryStore/
// Bookmarks.swift): every call the bookmark commands make to the database goes through here.
#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import HistoryStore

/// What an import would do (or did): rules of the file that are new, that give an
/// existing imported rule another friendly name, and that are already there.
public struct ImportCounts: Equatable, Sendable {
    public var adds = 0
    public var changes = 0
    public var skips = 0
    public init(adds: Int = 0, changes: Int = 0, skips: Int = 0) {
        self.adds = adds; self.changes = changes; self.skips = skips
    }

    init(_ plan: HistoryStore.ImportPlan) {
        self.init(adds: plan.adds.count, changes: plan.changes.count, skips: plan.skips.count)
    }
}

extension HistoryDatabase {
    /// Every rule in the database (built-ins included), in precedence order.
    func cliBookmarks() throws(StoreError) -> [BookmarkRule] {
        try bookmarks()
    }

    /// Adds a rule of the user's (or renames the one with its key).
    func cliAddBookmark(_ rule: BookmarkRule) throws(StoreError) -> AddBookmarkOutcome {
        try addBookmark(rule)
    }

    /// Removes the user's or the imported rule with this key; false when there was none.
    func cliRemoveBookmark(_ key: RuleKey) throws(StoreError) -> Bool {
        try removeBookmark(key: key, source: nil)
    }

    /// What importing `rules` (as imported rules) would do; changes nothing.
    func cliPlanImport(_ rules: [BookmarkRule]) throws(StoreError) -> ImportCounts {
        ImportCounts(try planImport(BookmarkFile(rules: rules)))
    }

    /// Imports `rules` in one transaction (all or nothing), planned again against the
    /// database as it is now (it may have changed while the user was asked).
    func cliApplyImport(_ rules: [BookmarkRule]) throws(StoreError) -> ImportCounts {
        let plan = try planImport(BookmarkFile(rules: rules))
        try applyImport(plan)
        return ImportCounts(plan)
    }

    /// The store rewrites `<directory>/bookmarks.rules` itself on every change; this only
    /// puts it back when it is missing (removed by hand, or a change that changed nothing).
    func cliWriteRulesCache(directory: String) throws(StoreError) {
        let path = HistoryDatabase.rulesCachePath(in: directory)
        if access(path, F_OK) != 0 { try writeRulesCache(to: path) }
    }
}
