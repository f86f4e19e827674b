/// Why the history store refused or failed; `description` is one line for the user.
public struct StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What kind of problem, for callers that react differently (tests, exit codes).
    public enum Kind: Equatable, Sendable {
        /// A file system call failed (open, read, write, rename, mkdir).
        case io
        /// The file system holding the file is full or over quota (SQLITE_FULL, or ENOSPC /
        /// EDQUOT from a write): nothing was changed, and the same write can succeed later.
        case full
        /// SQLite reported an error on a database we own.
        case sqlite
        /// The file is empty (0 bytes).
        case empty
        /// The file does not start with the SQLite header.
        case notSQLite
        /// The file is shorter than its SQLite header says.
        case truncated
        /// The file is an SQLite database that fails `PRAGMA integrity_check` or cannot be read.
        case corrupt
        /// A valid SQLite database that belongs to another application (application_id).
        case foreignApplication
        /// A sysstats database (to restore) whose tables, columns, indexes, triggers or views
        /// are not exactly those of its schema version.
        case schemaMismatch
        /// A sysstats database (to restore) holding a value sysstats never writes: a wrong
        /// type, an overlong name or pattern, too many rows, a bookmark a file could not hold.
        case invalidContent
        /// A sysstats database from a newer build (user_version above ours).
        case newerSchema
        /// A read-only open of a database this build would have to migrate first.
        case olderSchema
        /// Another process holds the database (restore while the sampler runs).
        case busy
        /// A request the store will not carry out as asked: a bookmark that would match every
        /// process or is too long, removing a built-in bookmark, more rules than the limits.
        case refused
    }

    public var kind: Kind
    /// The one-line message.
    public var message: String

    /// An error of `kind` with its one-line `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The one-line message.
    public var description: String { message }
}
