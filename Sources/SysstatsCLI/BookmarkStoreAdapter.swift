// The CLI's one seam onto the bookmark storage of HistoryStore: every call the bookmark
// commands make to the database goes through here, so the commands do not care how the
// store names its API.
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
}

extension HistoryDatabase {
    /// Every rule in the database (built-ins included), in precedence order.
    func cliBookmarks() throws(StoreError) -> [BookmarkRule] {
        throw StoreError(.sqlite, "bookmark storage is not available in this build")
    }

    /// Adds a rule of the user's (or renames it when its key is there); true when it replaced one.
    func cliAddBookmark(_ rule: BookmarkRule) throws(StoreError) -> Bool {
        throw StoreError(.sqlite, "bookmark storage is not available in this build")
    }

    /// Removes the user's rule with this key; false when there was none.
    func cliRemoveBookmark(_ key: RuleKey) throws(StoreError) -> Bool {
        throw StoreError(.sqlite, "bookmark storage is not available in this build")
    }

    /// What importing `rules` (as imported rules) would do; changes nothing.
    func cliPlanImport(_ rules: [BookmarkRule]) throws(StoreError) -> ImportCounts {
        throw StoreError(.sqlite, "bookmark storage is not available in this build")
    }

    /// Imports `rules` in one transaction (all or nothing).
    func cliApplyImport(_ rules: [BookmarkRule]) throws(StoreError) -> ImportCounts {
        throw StoreError(.sqlite, "bookmark storage is not available in this build")
    }

    /// Writes `<directory>/bookmarks.rules` for the sampler.
    func cliWriteRulesCache(directory: String) throws(StoreError) {
        throw StoreError(.sqlite, "bookmark storage is not available in this build")
    }
}
