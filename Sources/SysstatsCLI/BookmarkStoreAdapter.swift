// The CLI's one seam onto the bookmark storage of HistoryStore (Sources/HistoryStore/
// Bookmarks.swift): every call the bookmark commands make to the database goes through here.
#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import HistoryStore
import ProcFS

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

    /// What importing `file`'s rules (as imported rules) would do; changes nothing.
    func cliPlanImport(_ file: BookmarkFile) throws(StoreError) -> ImportPlan {
        try planImport(file)
    }

    /// Imports `file`'s rules in one transaction (all or nothing), planned again against the
    /// database as it is now (it may have changed while the user was asked).
    func cliApplyImport(_ file: BookmarkFile) throws(StoreError) -> ImportPlan {
        let plan = try planImport(file)
        try applyImport(plan)
        return plan
    }

    /// The store rewrites `<directory>/bookmarks.rules` itself on every change; this only
    /// puts it back when it is missing (removed by hand, or a change that changed nothing).
    func cliWriteRulesCache(directory: String) throws(StoreError) {
        let path = HistoryDatabase.rulesCachePath(in: directory)
        if access(cPath(path), F_OK) != 0 { try writeRulesCache(to: path) }
    }
}
