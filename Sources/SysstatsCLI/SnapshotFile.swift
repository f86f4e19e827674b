#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SystemDirs
import SnapshotCodec
import Bookmarks

/// Why the snapshot could not be shown; `message` is one line for stderr.
public struct SnapshotReadError: Error, Equatable {
    public enum Kind: Equatable, Sendable { case missing, unreadable, corrupt }
    public var kind: Kind
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind; self.message = message
    }
}

/// Reads and decodes the snapshot file.
public enum SnapshotFile {
    /// The largest file the decoder accepts; a larger one is refused before decoding.
    static let readLimit = SnapshotFormat.maximumEncodedSize

    /// The message for a missing snapshot: where it was expected and how to get one.
    public static func missingMessage(path: String) -> String {
        "no snapshot at \(TerminalText.escape(path)); start the sampler with `sysstatsd &` or `systemctl --user start sysstatsd` (a running sysstats-bar starts one itself)"
    }

    /// The decoder's one-line message, with the number it carries where there is one.
    public static func describe(_ error: SnapshotDecodeError) -> String {
        switch error {
        case .unsupportedVersion(let version):
            return "\(error.message) \(version) (this sysstats reads versions \(SnapshotFormat.oldestReadableVersion) to \(SnapshotFormat.version))"
        case .oversize(let size):
            return "\(error.message) (\(size) bytes)"
        default:
            return "\(error.message)"
        }
    }

    /// Decodes `bytes`, turning a decoder error into a ``SnapshotReadError`` naming `path`.
    public static func decode(_ bytes: [UInt8], path: String) -> Result<Snapshot, SnapshotReadError> {
        let decoded = bytes.withUnsafeBytes { raw -> Result<Snapshot, SnapshotDecodeError> in
            do throws(SnapshotDecodeError) { return .success(try Snapshot.decode(raw)) } catch { return .failure(error) }
        }
        return decoded.mapError {
            SnapshotReadError(kind: .corrupt, message: "corrupt snapshot at \(TerminalText.escape(path)): \(describe($0))")
        }
    }

    /// Reads and decodes the snapshot at `path`. A file refused as corrupt is read once more:
    /// the sampler rewrites the file a reader opened one interval before (see SnapshotWriter),
    /// and a reader that slow may have read it mid-write; the checksum refused that read.
    public static func read(path: String) -> Result<Snapshot, SnapshotReadError> {
        let first = readBytes(path: path).flatMap { decode($0, path: path) }
        if case .failure(let e) = first, e.kind == .corrupt {
            return readBytes(path: path).flatMap { decode($0, path: path) }
        }
        return first
    }

    /// The file's bytes (at most ``readLimit``). The directory holding it must pass the
    /// sampler's own check (a directory of ours, not a symlink, mode 0700): another user
    /// could otherwise plant the snapshot. The file is opened relative to that directory's
    /// descriptor, without blocking (a FIFO is refused, not waited on) or following a
    /// symlink, and must be a regular file.
    static func readBytes(path: String) -> Result<[UInt8], SnapshotReadError> {
        let (directoryPath, name) = split(path)
        let directory: OpenRuntimeDirectory
        switch RuntimeDirectory.open(directoryPath) {
        case .success(let d): directory = d
        case .failure(let e):
            var info = stat()
            if lstat(cPath(directoryPath), &info) != 0 && (errno == ENOENT || errno == ENOTDIR) {
                return .failure(SnapshotReadError(kind: .missing, message: missingMessage(path: path)))
            }
            return .failure(SnapshotReadError(kind: .unreadable, message: TerminalText.escape("not reading the snapshot: \(e)")))
        }
        defer { directory.close() }
        switch readRegularFile(name, relativeTo: directory.descriptor, limit: readLimit) {
        case .success(let bytes):
            return .success(bytes)
        case .failure(.tooLarge):
            return .failure(SnapshotReadError(kind: .corrupt, message: "corrupt snapshot at \(TerminalText.escape(path)): "
                                              + "\(describe(.oversize(UInt32(clamping: readLimit)))) or more"))
        case .failure(let e) where e.isMissing:
            return .failure(SnapshotReadError(kind: .missing, message: missingMessage(path: path)))
        case .failure(let e):
            return .failure(SnapshotReadError(kind: .unreadable, message: "cannot read snapshot at \(TerminalText.escape(path)): \(e)"))
        }
    }

    /// `path`'s directory and last component (`.` for a bare name).
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
