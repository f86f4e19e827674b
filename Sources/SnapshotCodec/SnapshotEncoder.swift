// Snapshot → bytes, format v3 (see SnapshotFormat and docs/snapshot-format.md): the
// header, then one section per available part (Sections/). Writes into the caller's
// buffer (EncodeCursor): encoding allocates nothing.

extension Snapshot {
    /// Encodes this snapshot in format v3 into `buffer` and returns its length: the meta
    /// section, then a section for each part in ``available`` (and the pressure section when
    /// ``memoryPressure`` is set). `buffer` must hold ``SnapshotFormat/maximumV3Size`` bytes.
    /// Nothing is allocated: the sampler encodes into one buffer, once a sample.
    ///
    /// Nothing is sanitised, but everything is clamped to the format's limits so the output
    /// always decodes: the first ``maximumCores`` cores, the newest ``historyLength`` history
    /// points (the iowait series right-aligned on the busy series, its missing points as 0),
    /// the first ``maximumTopEntries`` top entries and ``maximumExits`` exits, names cut to
    /// ``maximumNameLength`` bytes on a UTF-8 character boundary.
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        encode(into: buffer, cache: nil, unchanged: [])
    }

    /// ``encode(into:)-(UnsafeMutableRawBufferPointer)``, with the sections of the parts in
    /// `unchanged` copied from `cache` when it holds them (each such part is the same as when
    /// its section was last encoded with this cache), and the sections of the parts a cache
    /// holds that are encoded kept in it.
    public func encode(into buffer: UnsafeMutableRawBufferPointer, cache: SectionCache?, unchanged: SnapshotSections) -> Int {
        var lent = self
        return Snapshot.encode(&lent, into: buffer, cache: cache, unchanged: unchanged)
    }

    /// ``encode(into:cache:unchanged:)`` of a snapshot lent by address, not changed: the
    /// sampler's, kept in its sampler object. A value argument read from an object's (or an
    /// inout's) storage is first copied whole, 288 bytes through glibc's memmove, whose
    /// pages were then a sample's only reason to enter it; an inout one is not, nor are the
    /// sections' (they take it inout for the same reason).
    public static func encode(_ s: inout Snapshot, into buffer: UnsafeMutableRawBufferPointer, cache: SectionCache?,
                              unchanged: SnapshotSections) -> Int {
        precondition(buffer.count >= SnapshotFormat.maximumV3Size, "a snapshot buffer holds maximumV3Size bytes")
        var b = EncodeCursor(buffer)

        // Header; total length and checksum are patched in at the end.
        b.appendLE(SnapshotFormat.magic)
        b.appendLE(SnapshotFormat.version)
        b.appendLE(UInt16(SnapshotFormat.headerLength))
        b.appendLE(UInt32(0))         // total length
        b.appendLE(s.sequence)
        b.appendLE(UInt32(0))         // checksum
        b.appendLE(UInt32(0))         // flags

        encodeSections(&s, &b, cache, unchanged)

        b.storeLE(UInt32(b.count), at: SnapshotFormat.totalLengthOffset)
        b.storeLE(CRC32.checksum(b.bytes(from: SnapshotFormat.headerLength)), at: SnapshotFormat.checksumOffset)
        return b.count
    }

    /// Replaces the contents of `bytes` with this snapshot in format v3 (see
    /// ``encode(into:)-(UnsafeMutableRawBufferPointer)``), reusing its capacity.
    public func encode(into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: repeatElement(0, count: SnapshotFormat.maximumV3Size))
        let length = bytes.withUnsafeMutableBytes { encode(into: $0) }
        bytes.removeLast(bytes.count - length)
    }
}

extension [UInt8] {
    /// Appends `value` little-endian: the byte order of every sysstats file format
    /// (the snapshot, the history batch).
    ///
    /// Inlinable so that other modules (HistoryRecords) get it specialized: called through
    /// the generic, its `BinaryInteger` witnesses for UInt16/32/64 were the only code run in
    /// two 64 KiB windows of the sampler's code pages (docs/performance-history.md).
    @inlinable @inline(__always)
    public mutating func appendLE<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        var v = value
        for _ in 0..<(T.bitWidth / 8) {
            append(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }
}
