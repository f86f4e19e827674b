// Snapshot → bytes, format v3 (see SnapshotFormat and docs/snapshot-format.md): the
// header, then one section per available part (Sections/). Writes into the caller's
// buffer and reuses its capacity: after the first call, encoding allocates nothing.

extension Snapshot {
    /// Replaces the contents of `bytes` with this snapshot in format v3: the meta section,
    /// then a section for each part in ``available`` (and the pressure section when
    /// ``memoryPressure`` is set).
    ///
    /// Nothing is sanitised, but everything is clamped to the format's limits so the output
    /// always decodes: the first ``maximumCores`` cores, the newest ``historyLength`` history
    /// points (the iowait series right-aligned on the busy series, its missing points as 0),
    /// the first ``maximumTopEntries`` top entries and ``maximumExits`` exits, names cut to
    /// ``maximumNameLength`` bytes on a UTF-8 character boundary.
    public func encode(into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(SnapshotFormat.maximumV3Size)

        // Header; total length and checksum are patched in at the end.
        bytes.appendLE(SnapshotFormat.magic)
        bytes.appendLE(SnapshotFormat.version)
        bytes.appendLE(UInt16(SnapshotFormat.headerLength))
        bytes.appendLE(UInt32(0))         // total length
        bytes.appendLE(sequence)
        bytes.appendLE(UInt32(0))         // checksum
        bytes.appendLE(UInt32(0))         // flags

        MetaSection.encode(self, into: &bytes)
        if available.contains(.uptime) { UptimeSection.encode(self, into: &bytes) }
        if available.contains(.cpu) { CPUSection.encode(self, into: &bytes) }
        if available.contains(.memory) { MemorySection.encode(self, into: &bytes) }
        PressureSection.encode(self, into: &bytes)
        if available.contains(.load) { LoadSection.encode(self, into: &bytes) }
        if available.contains(.processes) { ProcessesSection.encode(self, into: &bytes) }
        if available.contains(.battery) { BatterySection.encode(self, into: &bytes) }
        if available.contains(.top) { TopSection.encode(self, into: &bytes) }
        if available.contains(.exits) { ExitsSection.encode(self, into: &bytes) }
        if available.contains(.sampler) { SamplerSection.encode(self, into: &bytes) }
        if available.contains(.network) { NetworkSection.encode(self, into: &bytes) }
        if available.contains(.disks) { DisksSection.encode(self, into: &bytes) }
        if available.contains(.diskIO) { DiskIOSection.encode(self, into: &bytes) }
        if available.contains(.temperature) { TemperatureSection.encode(self, into: &bytes) }
        if available.contains(.frequency) { FrequencySection.encode(self, into: &bytes) }

        let total = bytes.count
        let checksum = bytes.withUnsafeBytes { raw in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[SnapshotFormat.headerLength...]))
        }
        bytes.storeLE(UInt32(total), at: SnapshotFormat.totalLengthOffset)
        bytes.storeLE(checksum, at: SnapshotFormat.checksumOffset)
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

    mutating func storeLE(_ value: UInt32, at offset: Int) {
        for i in 0..<4 { self[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    /// A u8 length and the bytes, cut to ``Snapshot/maximumNameLength`` on a UTF-8 boundary.
    mutating func appendName(_ name: [UInt8]) {
        var length = name.count
        if length > Snapshot.maximumNameLength {
            length = Snapshot.maximumNameLength
            // Back off while the first byte left out continues a character.
            while length > 0 && name[length] & 0xC0 == 0x80 { length -= 1 }
        }
        append(UInt8(length))
        for i in 0..<length { append(name[i]) }
    }

    /// A u8 length and at most `maximum` bytes of `bytes`, cut on a UTF-8 boundary when
    /// longer (a raw name that is not UTF-8 is cut where the boundary rule leaves it).
    mutating func appendShortBytes(_ bytes: [UInt8], maximum: Int) {
        var length = bytes.count
        if length > maximum {
            length = maximum
            while length > 0 && bytes[length] & 0xC0 == 0x80 { length -= 1 }
        }
        append(UInt8(length))
        for i in 0..<length { append(bytes[i]) }
    }

    /// A u8 count and up to ``Snapshot/maximumTopEntries`` process entries.
    mutating func appendProcesses(_ entries: [ProcessEntry]) {
        let count = Swift.min(entries.count, Snapshot.maximumTopEntries)
        append(UInt8(count))
        for i in 0..<count {
            let p = entries[i]
            appendLE(p.pid)
            appendLE(p.cpu)
            appendLE(p.privateKiB)
            appendName(p.name)
        }
    }

    /// A u8 count and up to ``Snapshot/maximumExits`` exit entries.
    mutating func appendExits(_ exits: [ExitEntry]) {
        let count = Swift.min(exits.count, Snapshot.maximumExits)
        append(UInt8(count))
        for i in 0..<count {
            let e = exits[i]
            appendLE(e.pid)
            appendLE(e.timeMs)
            appendLE(e.lastPrivateKiB)
            appendLE(e.freedKiB)
            appendName(e.name)
        }
    }
}
