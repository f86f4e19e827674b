import Foundation

/// A live fixture root that tests move from one committed sample to the next.
///
/// Files are overwritten in place (same inode), because the readers keep
/// /proc/stat and friends open and re-read them with pread, as on a real
/// system; process directories absent from the next sample are removed.
final class FixtureMachine {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    let root: URL
    let source: URL
    var procRoot: String { root.appendingPathComponent("proc").path }
    var sysRoot: String { root.appendingPathComponent("sys").path }

    init(_ name: String) throws {
        source = FixtureMachine.fixtures.appendingPathComponent(name)
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sysstats-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Makes the live root look like sample `n` of the fixture.
    func advance(to n: Int) throws {
        let sample = source.appendingPathComponent(String(n))
        try mirror(from: sample, to: root)
    }

    private func mirror(from src: URL, to dst: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: dst, withIntermediateDirectories: true)
        let wanted = Set(try fm.contentsOfDirectory(atPath: src.path))
        for existing in try fm.contentsOfDirectory(atPath: dst.path) where !wanted.contains(existing) {
            try fm.removeItem(at: dst.appendingPathComponent(existing))
        }
        for name in wanted {
            let s = src.appendingPathComponent(name), d = dst.appendingPathComponent(name)
            let attributes = try fm.attributesOfItem(atPath: s.path)
            switch attributes[.type] as? FileAttributeType {
            case .typeSymbolicLink?:
                try? fm.removeItem(at: d)
                try fm.createSymbolicLink(atPath: d.path, withDestinationPath: fm.destinationOfSymbolicLink(atPath: s.path))
            case .typeDirectory?:
                try mirror(from: s, to: d)
            default:
                // Not atomic: keep the inode, so an open descriptor sees the new contents.
                try Data(contentsOf: s).write(to: d)
            }
        }
    }
}
