import Foundation

/// The committed fixture trees, `Tests/Fixtures/<case>/`.
public enum Fixtures {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// `Tests/Fixtures/<relative>` as a path.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// The package's root folder.
    public static let packageRoot = root.deletingLastPathComponent().deletingLastPathComponent()
}

/// A private temporary directory (mode 0700), removed when the value goes away.
public final class TemporaryDirectory {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// `<directory>/<name>`.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    public func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }
}

/// A temporary tree that tests move from one committed fixture to the next.
///
/// Files are overwritten in place (same inode) and the tree's own directories
/// are kept, because the readers keep /proc/stat and the proc root open and
/// re-read them, as on a real system; entries absent from the next fixture are
/// removed.
public final class LiveTree {
    private let directory: TemporaryDirectory
    public var url: URL { directory.url }
    public var path: String { directory.path }

    public init() throws { directory = try TemporaryDirectory("tree") }

    /// Makes the tree look like `Tests/Fixtures/<relative>`.
    public func mirror(_ relative: String) throws {
        try LiveTree.mirror(from: Fixtures.root.appendingPathComponent(relative), to: url)
    }

    private static func mirror(from src: URL, to dst: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: dst, withIntermediateDirectories: true)
        let wanted = Set(try fm.contentsOfDirectory(atPath: src.path))
        for existing in try fm.contentsOfDirectory(atPath: dst.path) where !wanted.contains(existing) {
            try fm.removeItem(at: dst.appendingPathComponent(existing))
        }
        for name in wanted {
            let s = src.appendingPathComponent(name), d = dst.appendingPathComponent(name)
            switch try fm.attributesOfItem(atPath: s.path)[.type] as? FileAttributeType {
            case .typeSymbolicLink?:
                try? fm.removeItem(at: d)
                try fm.createSymbolicLink(atPath: d.path, withDestinationPath: fm.destinationOfSymbolicLink(atPath: s.path))
            case .typeDirectory?:
                if (try? fm.destinationOfSymbolicLink(atPath: d.path)) != nil { try fm.removeItem(at: d) }
                try mirror(from: s, to: d)
            default:
                // Not atomic: keep the inode, so an open descriptor sees the new contents.
                try Data(contentsOf: s).write(to: d)
            }
        }
    }
}
