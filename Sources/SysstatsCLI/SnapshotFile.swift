#if canImport(Glibc)
import Glibc
#endif
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
    /// Reads at most one byte more than the decoder accepts, so an oversized file is reported as such.
    static let readLimit = SnapshotFormat.maximumEncodedSize + 1

    /// The message for a missing snapshot: where it was expected and how to get one.
    public static func missingMessage(path: String) -> String {
        "no snapshot at \(TerminalText.escape(path)); start the sampler with `sysstatsd &` (or `install/run.sh`)"
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

    /// Reads and decodes the snapshot at `path`.
    public static func read(path: String) -> Result<Snapshot, SnapshotReadError> {
        readBytes(path: path).flatMap { decode($0, path: path) }
    }

    /// The file's bytes (at most ``readLimit``).
    static func readBytes(path: String) -> Result<[UInt8], SnapshotReadError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                return .failure(SnapshotReadError(kind: .missing, message: missingMessage(path: path)))
            }
            return .failure(SnapshotReadError(kind: .unreadable, message: "cannot read snapshot at \(TerminalText.escape(path)): \(String(cString: strerror(code)))"))
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: readLimit)
        var count = 0
        while count < readLimit {
            let n = bytes.withUnsafeMutableBytes { raw in
                Glibc.read(fd, raw.baseAddress! + count, readLimit - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                return .failure(SnapshotReadError(kind: .unreadable, message: "cannot read snapshot at \(TerminalText.escape(path)): \(String(cString: strerror(code)))"))
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }
}
