#if canImport(Glibc)
import Glibc
#endif
import SystemDirs
import SnapshotCodec

/// Where the CLI looks for the snapshot: the same rule as the sampler's.
public enum RuntimePaths {
    /// The snapshot's file name inside the runtime directory.
    public static let snapshotName = SnapshotLocation.fileName

    /// The runtime directory: `option` when given; else `$XDG_RUNTIME_DIR/sysstats`
    /// when XDG_RUNTIME_DIR is set and absolute; else `/tmp/sysstats-<uid>`.
    public static func runtimeDirectory(option: String?,
                                        xdgRuntimeDir: String? = environmentValue("XDG_RUNTIME_DIR"),
                                        uid: UInt32 = geteuid()) -> String {
        if let option, !option.isEmpty { return option }
        return SnapshotLocation.runtimeDirectory(xdgRuntimeDir: xdgRuntimeDir, uid: uid)
    }

    /// `<directory>/snapshot`.
    public static func snapshotPath(in directory: String) -> String {
        SnapshotLocation.snapshotPath(in: directory)
    }
}
