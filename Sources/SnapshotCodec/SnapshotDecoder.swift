// Bytes → Snapshot, formats v3 (sections), v2 and v1. Every read is bounds-checked first;
// no arithmetic on input values can overflow; any input gives either a valid Snapshot or
// a SnapshotDecodeError, never a trap.

extension Snapshot {
    /// Decodes a whole snapshot file, format v3, v2 or v1 (a v1 file has no iowait
    /// history: ``iowaitHistory`` is left empty).
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(SnapshotDecodeError) -> Snapshot {
        var snapshot = Snapshot()
        try snapshot.decode(from: bytes)
        return snapshot
    }

    /// Decodes a whole snapshot file into `self`, reusing the capacity of its
    /// arrays (and of the names of existing top and exit entries), so that a
    /// renderer decoding every update allocates nothing in steady state.
    ///
    /// In a v3 file, a section this reader does not know is skipped, and a known section
    /// that fails its own checks leaves its part out of ``available`` (its fields reset)
    /// rather than failing the file; only damage to the header, the section framing or the
    /// required meta section is an error.
    ///
    /// `parts` limits a v3 file's decoding to those parts (a renderer decodes what its blocks
    /// show): the sections of the others are skipped unread and their parts left out of
    /// ``available``, as if absent. The meta and pressure sections are always read.
    ///
    /// On error `self` holds an unspecified mix of old and new values (every
    /// field valid for its type); do not show it.
    public mutating func decode(from bytes: UnsafeRawBufferPointer, only parts: SnapshotSections = .all) throws(SnapshotDecodeError) {
        let (body, version) = try Snapshot.checkHeader(bytes)
        sequence = SnapshotReader(bytes).peekU64(at: SnapshotFormat.sequenceOffset)
        if version >= 3 {
            try decodeSections(body, only: parts)
        } else {
            try decodeFixedBody(body, version: version)
        }
    }

    /// v3: the sections, in any order; the first of a repeated tag counts.
    private mutating func decodeSections(_ body: UnsafeRawBufferPointer, only parts: SnapshotSections) throws(SnapshotDecodeError) {
        var r = SnapshotReader(body)
        var seen: UInt32 = 0
        available = []
        memoryPressure = nil
        while !r.isAtEnd {
            let tag = try r.u16()
            _ = try r.u16()   // the section's version: later versions only append fields
            let length = Int(try r.u32())
            var payload = SnapshotReader(try r.take(length))
            guard let known = SectionTag(rawValue: tag) else { continue }
            if let part = known.part, !parts.contains(part) { continue }
            let bit: UInt32 = 1 << UInt32(known.rawValue)
            guard seen & bit == 0 else { continue }
            seen |= bit
            do throws(SnapshotDecodeError) {
                try decodeSection(known, &payload)
                if let part = known.part { available.insert(part) }
            } catch {
                // Only the meta section is required; any other damaged section is left out.
                if known == .meta { throw error }
                if known == .pressure { memoryPressure = nil }
                if let part = known.part { available.remove(part) }
            }
        }
        guard seen & (1 << UInt32(SectionTag.meta.rawValue)) != 0 else { throw .malformed(.missingMetaSection) }
        // What was not there (or was damaged) is reset, never left over from the last file.
        clearAbsentParts()
    }

    /// v1 and v2: one fixed layout; every part is available.
    private mutating func decodeFixedBody(_ body: UnsafeRawBufferPointer, version: UInt16) throws(SnapshotDecodeError) {
        var r = SnapshotReader(body)
        available = .fixedLayout
        clearNewerParts()
        timestampMs = try r.u64()
        intervalMs = try r.u32()
        bootTime = try r.u64()
        uptimeCentiseconds = try r.u64()
        cpuBusy = try r.share()
        cpuIOWait = try r.share()
        samplerCPU = try r.share()
        samplerResidentKiB = try r.u32()

        memory.total = try r.u64()
        memory.free = try r.u64()
        memory.active = try r.u64()
        memory.inactive = try r.u64()
        memory.wired = try r.u64()
        memory.other = try r.u64()
        memory.available = try r.u64()
        memory.used = try r.u64()
        memory.swapTotal = try r.u64()
        memory.swapUsed = try r.u64()
        let pressure = try r.u16()
        memoryPressure = pressure == SnapshotFormat.noPressure ? nil : min(pressure, Snapshot.wholeShare)

        load1 = try r.u32()
        load5 = try r.u32()
        load15 = try r.u32()
        processCount = try r.u32()
        runningCount = try r.u32()

        battery.count = try r.u8()
        guard let state = BatteryFigures.State(rawValue: try r.u8()) else {
            throw .malformed(.unknownBatteryState)
        }
        battery.state = state
        battery.percent = try r.share()
        battery.powerMilliwatts = try r.u32()
        battery.minutesRemaining = try r.u32()
        urgent = UrgentFlags(rawValue: try r.u32())

        let cores = Int(try r.u16())
        guard cores <= Snapshot.maximumCores else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: cores, into: &coreBusy)

        let cpuPoints = Int(try r.u8())
        guard cpuPoints <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        try r.shareArray(count: cpuPoints, into: &cpuHistory)
        if version >= 2 {
            let iowaitPoints = Int(try r.u8())
            guard iowaitPoints <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
            guard iowaitPoints == cpuPoints else { throw .malformed(.historyLengthMismatch) }
            try r.shareArray(count: iowaitPoints, into: &iowaitHistory)
        } else {
            iowaitHistory.removeAll(keepingCapacity: true)
        }
        let memoryPoints = Int(try r.u8())
        guard memoryPoints <= Snapshot.historyLength else { throw .malformed(.countOverLimit) }
        guard memoryPoints == cpuPoints else { throw .malformed(.historyLengthMismatch) }
        try r.shareArray(count: memoryPoints, into: &memoryHistory)

        try r.processes(into: &topCPU)
        try r.processes(into: &topMemory)
        try r.exits(into: &exits)

        guard r.isAtEnd else { throw .malformed(.trailingBytes) }
    }

    /// Checks the header against the buffer; returns the body and the format version.
    private static func checkHeader(_ bytes: UnsafeRawBufferPointer)
        throws(SnapshotDecodeError) -> (body: UnsafeRawBufferPointer, version: UInt16) {
        guard bytes.count >= SnapshotFormat.headerLength else { throw .truncated }
        guard bytes.count <= SnapshotFormat.maximumEncodedSize else {
            throw .oversize(UInt32(clamping: bytes.count))
        }
        let h = SnapshotReader(bytes)
        guard h.peekU64(at: 0) == SnapshotFormat.magic else { throw .badMagic }
        let version = h.peekU16(at: SnapshotFormat.versionOffset)
        guard version >= SnapshotFormat.oldestReadableVersion, version <= SnapshotFormat.version else {
            throw .unsupportedVersion(version)
        }
        guard Int(h.peekU16(at: SnapshotFormat.headerLengthOffset)) == SnapshotFormat.headerLength else {
            throw .malformed(.headerLength)
        }
        let totalField = h.peekU32(at: SnapshotFormat.totalLengthOffset)
        guard totalField <= UInt32(SnapshotFormat.maximumEncodedSize) else { throw .oversize(totalField) }
        let total = Int(totalField)
        guard total >= SnapshotFormat.headerLength else { throw .malformed(.totalLength) }
        guard bytes.count >= total else { throw .truncated }
        guard bytes.count == total else { throw .malformed(.bytesAfterEnd) }
        let body = UnsafeRawBufferPointer(rebasing: bytes[SnapshotFormat.headerLength..<total])
        guard CRC32.checksum(body) == h.peekU32(at: SnapshotFormat.checksumOffset) else { throw .badChecksum }
        guard h.peekU32(at: SnapshotFormat.flagsOffset) == 0 else { throw .malformed(.flags) }
        return (body, version)
    }
}

/// The snapshot decoder's reader: a short body and a section running past the end are its errors.
typealias SnapshotReader = ByteReader<SnapshotDecodeError>

extension ByteReader where Failure == SnapshotDecodeError {
    init(_ bytes: UnsafeRawBufferPointer) {
        self.init(bytes, shortage: .malformed(.bodyTooShort), overrun: .malformed(.sectionRunsPastEnd))
    }

    /// A share in ‱, clamped to 10,000: a snapshot is hostile until checked, and a share
    /// above 100 % would reach every output as it is (`cpu 655%`).
    mutating func share() throws(SnapshotDecodeError) -> Permyriad { min(try u16(), Snapshot.wholeShare) }

    /// ``u16Array(count:into:)`` of shares, each clamped as ``share()`` clamps.
    mutating func shareArray(count: Int, into array: inout [Permyriad]) throws(SnapshotDecodeError) {
        try u16Array(count: count, into: &array)
        for i in array.indices where array[i] > Snapshot.wholeShare { array[i] = Snapshot.wholeShare }
    }

    /// Replaces `array` with `count` u16 values, keeping its capacity.
    mutating func u16Array(count: Int, into array: inout [UInt16]) throws(SnapshotDecodeError) {
        // count <= 512, so 2 * count cannot overflow.
        guard has(2 * count) else { throw .malformed(.bodyTooShort) }
        copyLittleEndian(count: count, into: &array)
    }

    /// Replaces `array` with `count` u32 values, keeping its capacity.
    mutating func u32Array(count: Int, into array: inout [UInt32]) throws(SnapshotDecodeError) {
        // count <= 60, so 4 * count cannot overflow.
        guard has(4 * count) else { throw .malformed(.bodyTooShort) }
        copyLittleEndian(count: count, into: &array)
    }

    /// Replaces `array` with the `count` little-endian values at the offset (bounds checked by
    /// the caller) in one copy, keeping its capacity: a value at a time cost ~70 instructions each.
    private mutating func copyLittleEndian<T: FixedWidthInteger>(count: Int, into array: inout [T]) {
        array.removeAll(keepingCapacity: true)
        array.append(contentsOf: repeatElement(0, count: count))
        let size = count * MemoryLayout<T>.size
        array.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size])) }
        #if _endian(big)
        for i in 0..<count { array[i] = T(littleEndian: array[i]) }
        #endif
        offset += size
    }

    /// A u8 length (at most `maximum`) and that many bytes, replacing `bytes`, keeping its capacity.
    mutating func shortBytes(into bytes: inout [UInt8], maximum: Int) throws(SnapshotDecodeError) {
        let slice = try shortBytes(maximum: maximum)
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: slice)
    }

    /// A u8 length (at most `maximum`) and that many bytes, lent from the input (valid while it is).
    mutating func shortBytes(maximum: Int) throws(SnapshotDecodeError) -> UnsafeRawBufferPointer {
        let length = Int(try u8())
        guard length <= maximum else { throw .malformed(.nameTooLong) }
        guard has(length) else { throw .malformed(.nameRunsPastEnd) }
        defer { offset += length }
        return UnsafeRawBufferPointer(rebasing: self.bytes[offset..<offset + length])
    }

    /// A u8 length and that many bytes, replacing `name` and keeping its capacity.
    mutating func name(into name: inout [UInt8]) throws(SnapshotDecodeError) {
        let length = Int(try u8())
        guard length <= Snapshot.maximumNameLength else { throw .malformed(.nameTooLong) }
        guard has(length) else { throw .malformed(.nameRunsPastEnd) }
        name.removeAll(keepingCapacity: true)
        for i in 0..<length { name.append(bytes[offset + i]) }
        offset += length
    }

    /// A u8 count and that many process entries, reusing existing entries.
    mutating func processes(into entries: inout [ProcessEntry]) throws(SnapshotDecodeError) {
        let count = Int(try u8())
        guard count <= Snapshot.maximumTopEntries else { throw .malformed(.countOverLimit) }
        if entries.count > count { entries.removeLast(entries.count - count) }
        for i in 0..<count {
            if i == entries.count { entries.append(ProcessEntry()) }
            entries[i].pid = try u32()
            entries[i].cpu = try u16()
            entries[i].privateKiB = try u64()
            try name(into: &entries[i].name)
        }
    }

    /// A u8 count and that many exit entries, reusing existing entries.
    mutating func exits(into entries: inout [ExitEntry]) throws(SnapshotDecodeError) {
        let count = Int(try u8())
        guard count <= Snapshot.maximumExits else { throw .malformed(.countOverLimit) }
        if entries.count > count { entries.removeLast(entries.count - count) }
        for i in 0..<count {
            if i == entries.count { entries.append(ExitEntry()) }
            entries[i].pid = try u32()
            entries[i].timeMs = try u64()
            entries[i].lastPrivateKiB = try u64()
            entries[i].freedKiB = try u64()
            try name(into: &entries[i].name)
        }
    }
}
