// Fuzz target `snapshot`: bytes → Snapshot.decode, as sysstats-bar reads a snapshot
// file another user may have planted.
//
// Properties:
// - decoding never traps; a refused file's message renders cleanly in every output
//   (what the bar shows then);
// - decoding into a snapshot that held other values gives what a fresh decode gives
//   (the renderer reuses one Snapshot);
// - what decodes (v3, v2 or v1) re-encodes, as v3, to a file that decodes to the same
//   snapshot (a v1 file's missing iowait history as zeros);
// - what decodes renders with every output, every block, every mem form, with and
//   without formats, and passes the output checks of Support/Bar/Outputs.swift.
//
// Mutations mostly break the header's total length or the body's CRC-32, which stops
// the decoder before the body; so an input with the magic is also decoded a second time
// with those two fields made right, letting the fuzzer reach the body's parser.

import BarCore
import SnapshotCodec

let magic = Array("SYSSTATS".utf8)
let headerLength = 32

/// Full arrays and long names: a decode into it must leave none of them behind.
let usedSnapshot: Snapshot = {
    var s = Snapshot()
    s.sequence = 7; s.timestampMs = 1; s.memory.total = 99; s.memoryPressure = 5
    s.coreBusy = Array(repeating: 1, count: Snapshot.maximumCores)
    s.cpuHistory = Array(repeating: 2, count: Snapshot.historyLength)
    s.iowaitHistory = s.cpuHistory
    s.memoryHistory = s.cpuHistory
    let name = Array(repeating: UInt8(ascii: "n"), count: Snapshot.maximumNameLength)
    s.topCPU = Array(repeating: ProcessEntry(pid: 1, cpu: 2, privateKiB: 3, name: name), count: Snapshot.maximumTopEntries)
    s.topMemory = s.topCPU
    s.exits = Array(repeating: ExitEntry(pid: 1, timeMs: 2, lastPrivateKiB: 3, freedKiB: 4, name: name),
                    count: Snapshot.maximumExits)
    return s
}()

/// Messages already checked in every output (each is a constant: once is enough).
nonisolated(unsafe) var checkedMessages: [String] = []

func checkMessage(_ message: StaticString) {
    let key = "\(message)"
    guard !checkedMessages.contains(key) else { return }
    renderMessageEverywhere(message)
    checkedMessages.append(key)
}

func checkDecode(_ bytes: UnsafeRawBufferPointer) {
    let snap: Snapshot
    do throws(SnapshotDecodeError) {
        snap = try Snapshot.decode(bytes)
    } catch {
        checkMessage(error.message)
        return
    }
    var reused = usedSnapshot
    do throws(SnapshotDecodeError) {
        try reused.decode(from: bytes)
    } catch {
        fuzzFail("decode(from:) into a used snapshot refused a file Snapshot.decode accepts: \(error)")
    }
    expect(reused == snap, "decode(from:) into a used snapshot differs from a fresh decode")

    // The writer writes v3: whatever version came in, its value survives re-encoding
    // (a v1 file's missing iowait history comes back as zeros, right-aligned).
    var encoded: [UInt8] = []
    snap.encode(into: &encoded)
    let version = UInt16(bytes[8]) | UInt16(bytes[9]) << 8
    var expected = snap
    if version == 1 { expected.iowaitHistory = Array(repeating: 0, count: snap.cpuHistory.count) }
    let again = encoded.withUnsafeBytes { try? Snapshot.decode($0) }
    expect(again == expected, "a decoded file re-encoded (v3) does not decode to the same snapshot", encoded)

    // Now: just after the sample (exits shown), the epoch, the far future, or before the sample.
    let nows: [UInt64] = [snap.timestampMs &+ 500, 0, .max, snap.timestampMs &- 10_000]
    renderEverything(snap, nowMs: nows[Int(snap.sequence & 3)])
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    checkDecode(input)
    guard size >= headerLength, size <= Snapshot.maximumEncodedSize, input.starts(with: magic) else { return 0 }
    var fixed = Array(input)
    for i in 0..<4 { fixed[12 + i] = UInt8(truncatingIfNeeded: UInt32(size) >> (8 * UInt32(i))) }
    let crc = fixed.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[headerLength...])) }
    for i in 0..<4 { fixed[24 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    if !fixed.elementsEqual(input) { fixed.withUnsafeBytes { checkDecode($0) } }
    return 0
}
