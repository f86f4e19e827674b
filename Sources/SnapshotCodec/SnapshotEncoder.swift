// Snapshot → bytes, format v2 (see SnapshotFormat and docs/snapshot-format.md).
// Writes into the caller's buffer and reuses its capacity: after the first
// call, encoding allocates nothing.

extension Snapshot {
    /// Replaces the contents of `bytes` with this snapshot in format v2.
    ///
    /// Nothing is sanitised, but everything is clamped to the format's limits
    /// so the output always decodes: the first ``maximumCores`` cores, the
    /// newest `min(cpuHistory.count, memoryHistory.count, historyLength)`
    /// history points of each series (the iowait series too; where it is
    /// shorter its oldest points are written as 0, so that a snapshot without
    /// iowait history, such as one decoded from a v1 file, keeps its graph), the first ``maximumTopEntries`` top
    /// entries and ``maximumExits`` exits, names cut to ``maximumNameLength``
    /// bytes on a UTF-8 character boundary, and a pressure of 0xFFFF (the
    /// "no PSI" marker) written as 0xFFFE.
    public func encode(into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(SnapshotFormat.maximumV2Size)

        // Header; total length and checksum are patched in at the end.
        bytes.appendLE(SnapshotFormat.magic)
        bytes.appendLE(SnapshotFormat.version)
        bytes.appendLE(UInt16(SnapshotFormat.headerLength))
        bytes.appendLE(UInt32(0))         // total length
        bytes.appendLE(sequence)
        bytes.appendLE(UInt32(0))         // checksum
        bytes.appendLE(UInt32(0))         // flags

        bytes.appendLE(timestampMs)
        bytes.appendLE(intervalMs)
        bytes.appendLE(bootTime)
        bytes.appendLE(uptimeCentiseconds)
        bytes.appendLE(cpuBusy)
        bytes.appendLE(cpuIOWait)
        bytes.appendLE(samplerCPU)
        bytes.appendLE(samplerResidentKiB)

        bytes.appendLE(memory.total)
        bytes.appendLE(memory.free)
        bytes.appendLE(memory.active)
        bytes.appendLE(memory.inactive)
        bytes.appendLE(memory.wired)
        bytes.appendLE(memory.other)
        bytes.appendLE(memory.available)
        bytes.appendLE(memory.used)
        bytes.appendLE(memory.swapTotal)
        bytes.appendLE(memory.swapUsed)
        if let pressure = memoryPressure {
            bytes.appendLE(min(pressure, SnapshotFormat.noPressure - 1))
        } else {
            bytes.appendLE(SnapshotFormat.noPressure)
        }

        bytes.appendLE(load1)
        bytes.appendLE(load5)
        bytes.appendLE(load15)
        bytes.appendLE(processCount)
        bytes.appendLE(runningCount)

        bytes.append(battery.count)
        bytes.append(battery.state.rawValue)
        bytes.appendLE(battery.percent)
        bytes.appendLE(battery.powerMilliwatts)
        bytes.appendLE(battery.minutesRemaining)
        bytes.appendLE(urgent.rawValue)

        let cores = min(coreBusy.count, Snapshot.maximumCores)
        bytes.appendLE(UInt16(cores))
        for i in 0..<cores { bytes.appendLE(coreBusy[i]) }

        let points = min(cpuHistory.count, memoryHistory.count, Snapshot.historyLength)
        bytes.append(UInt8(points))
        for i in (cpuHistory.count - points)..<cpuHistory.count { bytes.appendLE(cpuHistory[i]) }
        // Right-aligned on cpuHistory: iowaitHistory's newest point goes with the newest busy point.
        bytes.append(UInt8(points))
        let missing = max(0, points - iowaitHistory.count)
        for _ in 0..<missing { bytes.appendLE(Permyriad(0)) }
        for i in (iowaitHistory.count - (points - missing))..<iowaitHistory.count { bytes.appendLE(iowaitHistory[i]) }
        bytes.append(UInt8(points))
        for i in (memoryHistory.count - points)..<memoryHistory.count { bytes.appendLE(memoryHistory[i]) }

        Snapshot.encodeProcesses(topCPU, into: &bytes)
        Snapshot.encodeProcesses(topMemory, into: &bytes)

        let exitCount = min(exits.count, Snapshot.maximumExits)
        bytes.append(UInt8(exitCount))
        for i in 0..<exitCount {
            let e = exits[i]
            bytes.appendLE(e.pid)
            bytes.appendLE(e.timeMs)
            bytes.appendLE(e.lastPrivateKiB)
            bytes.appendLE(e.freedKiB)
            bytes.appendName(e.name)
        }

        let total = bytes.count
        let checksum = bytes.withUnsafeBytes { raw in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[SnapshotFormat.headerLength...]))
        }
        bytes.storeLE(UInt32(total), at: SnapshotFormat.totalLengthOffset)
        bytes.storeLE(checksum, at: SnapshotFormat.checksumOffset)
    }

    private static func encodeProcesses(_ entries: [ProcessEntry], into bytes: inout [UInt8]) {
        let count = min(entries.count, Snapshot.maximumTopEntries)
        bytes.append(UInt8(count))
        for i in 0..<count {
            let p = entries[i]
            bytes.appendLE(p.pid)
            bytes.appendLE(p.cpu)
            bytes.appendLE(p.privateKiB)
            bytes.appendName(p.name)
        }
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
}
