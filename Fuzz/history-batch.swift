// Fuzz target `history-batch`: bytes → HistoryBatch.decode, as sysstatsd-history
// reads the batch the sampler writes to its stdin (or anything else on it).
//
// Properties:
// - decoding never traps, and the array and UnsafeRawBufferPointer forms agree;
// - an accepted batch re-encodes to the input's own bytes in the current version's layout:
//   the fields a sample marks absent zeroed (their bytes are ignored on reading and written
//   as 0); a version-2 input gaining the GPU figures' 13 bytes of zeros (absent) per sample,
//   a version-1 input likewise with the version-2 figures' 24 bytes of zeros before them;
//   the listed columns this build's (``ListedHistory``), each sample's value of a column the
//   input names taken from it (the last of two that share a name; clamped to the column's
//   range), any other absent; an input before version 5 gaining an empty list of unit rows;
// - the re-encoding decodes to the same batch.

import HistoryRecords
import SnapshotCodec

/// `input` as the encoder writes the batch it decoded to: version 5, the ignored bytes
/// (fields a sample marks absent) zeroed, the listed columns this build's. The input has
/// decoded, so every offset here is inside it.
func canonical(_ input: [UInt8]) -> [UInt8] {
    let version = Int(input[4]) | Int(input[5]) << 8
    let idLength = Int(input[12]) | Int(input[13]) << 8
    var p = 12 + 2 + idLength + 24
    var out = Array(input[0..<p])
    out[4] = 5
    out[5] = 0
    // The input's listed columns, each as this build's column (nil: unknown).
    var columns: [Int?] = []
    if version >= 4 {
        let count = Int(input[p])
        p += 1
        for _ in 0..<count {
            let length = Int(input[p])
            columns.append(ListedHistory.index(ofColumn: input[(p + 1)..<(p + 1 + length)]))
            p += 1 + length
        }
    }
    let own = min(ListedHistory.columns.count, ListedHistory.maximumColumns)
    out.append(UInt8(own))
    for i in 0..<own {
        let name = ListedHistory.columns[i].history.column
        out.append(UInt8(name.utf8CodeUnitCount))
        out += UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }
    let sampleSize = version == 1 ? 54 : version == 2 ? 78 : 91
    let samples = Int(input[p]) | Int(input[p + 1]) << 8 | Int(input[p + 2]) << 16 | Int(input[p + 3]) << 24
    out += input[p..<(p + 4)]
    p += 4
    for _ in 0..<samples {
        var sample = Array(input[p..<(p + sampleSize)])
        p += sampleSize
        if version == 1 { sample += [UInt8](repeating: 0, count: 24) }
        if version <= 2 { sample += [UInt8](repeating: 0, count: 13) }
        let presence = sample[48], more = sample[78]
        // (bit, first byte, end) of each optional field.
        for (bit, from, to) in [(1, 49, 53), (2, 53, 54), (8, 54, 62), (16, 62, 70), (32, 70, 74), (64, 74, 78)]
        where presence & UInt8(bit) == 0 {
            for k in from..<to { sample[k] = 0 }
        }
        for (bit, from, to) in [(1, 79, 83), (2, 83, 91)] where more & UInt8(bit) == 0 {
            for k in from..<to { sample[k] = 0 }
        }
        var listed = [Int64?](repeating: nil, count: own)
        for column in columns {
            let given = input[p]
            var raw: UInt64 = 0
            for k in 0..<8 { raw |= UInt64(input[p + 1 + k]) << (8 * UInt64(k)) }
            p += 9
            if given == 1, let column, column < own {
                let range = ListedHistory.columns[column].range
                listed[column] = min(max(Int64(bitPattern: raw), range.lowerBound), range.upperBound)
            }
        }
        for value in listed {
            sample.append(value == nil ? 0 : 1)
            let bits = UInt64(bitPattern: value ?? 0)
            for k in 0..<8 { sample.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k)))) }
        }
        out += sample
    }
    out += input[p...]
    if version < 5 { out += [0, 0, 0, 0] }   // no unit rows
    let length = UInt32(out.count - 12)
    for i in 0..<4 { out[8 + i] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(i))) }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistoryBatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let fromArray = Result { () throws(HistoryBatchError) -> HistoryBatch in try HistoryBatch.decode(input) }
    let fromPointer = input.withUnsafeBytes { raw in
        Result { () throws(HistoryBatchError) -> HistoryBatch in try HistoryBatch.decode(raw) }
    }
    switch (fromArray, fromPointer) {
    case (.success(let a), .success(let b)):
        expect(a == b, "the two decode forms give different batches")
    case (.failure(let a), .failure(let b)):
        expect(a == b, "the two decode forms fail differently: \(a), \(b)")
        _ = a.description
        return 0
    default:
        fuzzFail("one decode form accepts what the other refuses")
    }
    guard case .success(let batch) = fromArray else { return 0 }
    let encoded = batch.encoded
    expect(encoded == canonical(input), "an accepted batch does not re-encode to its own bytes", encoded)
    let again = Result { () throws(HistoryBatchError) -> HistoryBatch in try HistoryBatch.decode(encoded) }
    guard case .success(let decodedAgain) = again, decodedAgain == batch else {
        fuzzFail("the re-encoded batch does not decode to the same batch", encoded)
    }
    return 0
}
