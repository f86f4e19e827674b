#if canImport(Glibc)
import Glibc
#endif
import HistoryStore
import ProcFS
import SystemDirs
import Bookmarks

/// Finding and opening the history database for the CLI.
public enum HistoryAccess {
    /// The data directory: `option`, else `$XDG_DATA_HOME/sysstats`, else `~/.local/share/sysstats`.
    public static func dataDirectory(option: String?, xdgDataHome: String? = environmentValue("XDG_DATA_HOME"),
                                     home: String? = environmentValue("HOME")) -> Result<String, StoreError> {
        guard let directory = HistoryDatabase.defaultDirectory(dataDir: option, xdgDataHome: xdgDataHome, home: home) else {
            return .failure(StoreError(.io, "no data directory: give --data-dir DIR (HOME and XDG_DATA_HOME are not set to absolute paths)"))
        }
        return .success(directory)
    }

    /// The message for a data directory without a database.
    public static func missingMessage(path: String) -> String {
        "no history yet at \(TerminalText.escape(path)): sysstatsd has not written any (or give --data-dir DIR)"
    }

    /// Opens `<directory>/history.sqlite` read-only; a missing file is its own message.
    public static func openForReading(directory: String) -> Result<HistoryDatabase, StoreError> {
        let path = HistoryDatabase.databasePath(in: directory)
        if access(cPath(path), F_OK) != 0 { return .failure(StoreError(.io, missingMessage(path: path))) }
        do throws(StoreError) {
            return .success(try HistoryDatabase(path: path, readOnly: true))
        } catch {
            return .failure(error)
        }
    }

    /// Runs `body` on the opened database; any store error becomes "sysstats: <message>", exit 1.
    static func reading(directory: String, _ body: (HistoryDatabase) throws(StoreError) -> CommandOutput) -> CommandOutput {
        switch openForReading(directory: directory) {
        case .failure(let error): return failure(error.message)
        case .success(let database):
            defer { database.close() }
            do throws(StoreError) { return try body(database) } catch { return failure(error.message) }
        }
    }

    static func failure(_ message: String) -> CommandOutput {
        CommandOutput(stdout: [], stderr: ["sysstats: " + message], status: 1)
    }
}
