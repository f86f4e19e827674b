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
        precondition(buffer.count >= SnapshotFormat.maximumV3Size, "a snapshot buffer holds maximumV3Size bytes")
        var b = EncodeCursor(buffer)

        // Header; total length and checksum are patched in at the end.
        b.appendLE(SnapshotFormat.magic)
        b.appendLE(SnapshotFormat.version)
        b.appendLE(UInt16(SnapshotFormat.headerLength))
        b.appendLE(UInt32(0))         // total length
        b.appendLE(sequence)
        b.appendLE(UInt32(0))         // checksum
        b.appendLE(UInt32(0))         // flags

        MetaSection.encode(self, into: &b)
        if available.contains(.uptime) { UptimeSection.encode(self, into: &b) }
        if available.contains(.cpu) { CPUSection.encode(self, into: &b) }
        if available.contains(.memory) { MemorySection.encode(self, into: &b) }
        PressureSection.encode(self, into: &b)
        if available.contains(.load) { LoadSection.encode(self, into: &b) }
        if available.contains(.processes) { ProcessesSection.encode(self, into: &b) }
        if available.contains(.battery) { BatterySection.encode(self, into: &b) }
        if available.contains(.top) { TopSection.encode(self, into: &b) }
        if available.contains(.exits) { ExitsSection.encode(self, into: &b) }
        if available.contains(.sampler) { SamplerSection.encode(self, into: &b) }
        if available.contains(.network) { NetworkSection.encode(self, into: &b) }
        if available.contains(.disks) { DisksSection.encode(self, into: &b) }
        if available.contains(.diskIO) { DiskIOSection.encode(self, into: &b) }
        if available.contains(.temperature) { TemperatureSection.encode(self, into: &b) }
        if available.contains(.frequency) { FrequencySection.encode(self, into: &b) }

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
    /// two 64 KiB windows of the sampler's code pages (docs/performance.md).
    @inlinable @inline(__always)
    public mutating func appendLE<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        var v = value
        for _ in 0..<(T.bitWidth / 8) {
            append(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }
}
