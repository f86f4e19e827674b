/// Section 7: how many processes there are, and how many are running.
enum ProcessesSection {
    static let size = 4 + 4

    static func encode(_ s: inout Snapshot, into b: inout EncodeCursor) {
        b.appendSection(.processes) { b in
            b.appendLE(s.processCount)
            b.appendLE(s.runningCount)
        }
    }

    static func decode(_ r: inout SnapshotReader, into s: inout Snapshot) throws(SnapshotDecodeError) {
        s.processCount = try r.u32()
        s.runningCount = try r.u32()
    }

    static func clear(_ s: inout Snapshot) {
        s.processCount = 0; s.runningCount = 0
    }
}
