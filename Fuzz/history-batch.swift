// Fuzz target `history-batch`: bytes → HistoryBatch.decode, as sysstatsd-history
// reads the batch the sampler writes to its stdin (or anything else on it).
//
// Properties:
// - decoding never traps, and the array and UnsafeRawBufferPointer forms agree;
// - an accepted batch re-encodes to the input's own bytes in the current version's layout:
//   a version-3 input exactly, except the fields a sample marks absent (their bytes are
//   ignored on reading and written as 0); a version-2 input as version 3, each sample
//   gaining the GPU figures' 13 bytes of zeros (absent); a version-1 input likewise, with
//   the version-2 figures' 24 bytes of zeros before them;
// - the re-encoding decodes to the same batch.

import HistoryRecords

/// `input` as the encoder writes the batch it decoded to: version 3, the ignored bytes
/// (fields a sample marks absent) zeroed. The input has decoded, so every offset here is
/// inside it.
func canonical(_ input: [UInt8]) -> [UInt8] {
    let version = Int(input[4]) | Int(input[5]) << 8
    let sampleSize = version == 1 ? 54 : version == 2 ? 78 : 91
    let idLength = Int(input[12]) | Int(input[13]) << 8
    var p = 12 + 2 + idLength + 24
    let samples = Int(input[p]) | Int(input[p + 1]) << 8 | Int(input[p + 2]) << 16 | Int(input[p + 3]) << 24
    p += 4
    var out = Array(input[0..<p])
    out[4] = 3
    out[5] = 0
    for _ in 0..<samples {
        var sample = Array(input[p..<(p + sampleSize)])
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
        out += sample
        p += sampleSize
    }
    out += input[p...]
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
