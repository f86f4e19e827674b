import SnapshotCodec

// The v2 writer as it was before v3 (sections): the tests of the fixed-layout decoder
// (v1 and v2 files, which readers still accept) build their inputs with it.

func encodedV2(_ snapshot: Snapshot) -> [UInt8] {
    var bytes: [UInt8] = []
    snapshot.encodeV2(into: &bytes)
    return bytes
}

private func storeLE(_ bytes: inout [UInt8], _ value: UInt32, at offset: Int) {
    for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
}

private func appendName(_ bytes: inout [UInt8], _ name: [UInt8]) {
    var length = name.count
    if length > Snapshot.maximumNameLength {
        length = Snapshot.maximumNameLength
        while length > 0 && name[length] & 0xC0 == 0x80 { length -= 1 }
    }
    bytes.append(UInt8(length))
    for i in 0..<length { bytes.append(name[i]) }
}

extension Snapshot {
    func encodeV2(into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(SnapshotFormat.maximumV2Size)

        // Header; total length and checksum are patched in at the end.
        bytes.appendLE(SnapshotFormat.magic)
        bytes.appendLE(UInt16(2))
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
            appendName(&bytes, e.name)
        }

        let total = bytes.count
        let checksum = bytes.withUnsafeBytes { raw in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[SnapshotFormat.headerLength...]))
        }
        storeLE(&bytes, UInt32(total), at: 12)
        storeLE(&bytes, checksum, at: 24)
    }

    static func encodeProcesses(_ entries: [ProcessEntry], into bytes: inout [UInt8]) {
        let count = min(entries.count, Snapshot.maximumTopEntries)
        bytes.append(UInt8(count))
        for i in 0..<count {
            let p = entries[i]
            bytes.appendLE(p.pid)
            bytes.appendLE(p.cpu)
            bytes.appendLE(p.privateKiB)
            appendName(&bytes, p.name)
        }
    }
}
