import SnapshotCodec

/// The reader of a listed part (``ListedPart``): it fills the part's readings in the snapshot
/// itself, in place (`snapshot.listed.update(tag)`), reusing their storage. The sampler runs
/// it when the part is due (its probe list, one line per part) and marks the part available
/// when it returns true.
public protocol PartReader: AnyObject {
    /// Reads the part's files into `buffer` and its readings into `snapshot` (which holds the
    /// other parts this sample measured before it: the GPUs' power, the batteries). False: the
    /// part could not be measured this time (shown as `n/a`, never as 0). A steady-state
    /// call allocates nothing.
    func read(into snapshot: inout Snapshot, buffer: ReadBuffer, monotonicNs: UInt64) -> Bool
    /// One line for the log, said once (the sampler takes it after the first sample): what
    /// the reader cannot read on this machine and why; nil: nothing to say.
    func takeNotice() -> String?
}

extension PartReader {
    public func takeNotice() -> String? { nil }
}

/// `value` as one decimal number and nothing but blanks or a newline after it; nil for anything else.
func parseUnsignedLine(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
    var s = ByteScanner(bytes)
    guard let value = s.unsigned() else { return nil }
    s.skipBlanks()
    guard s.isAtEnd || s.current == 0x0A else { return nil }
    return value
}
