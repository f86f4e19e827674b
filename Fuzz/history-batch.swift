// Fuzz target `history-batch`: bytes → HistoryBatch.decode, as sysstatsd-history
// reads the batch the sampler writes to its stdin (or anything else on it).
//
// Properties:
// - decoding never traps, and the array and UnsafeRawBufferPointer forms agree;
// - an accepted batch re-encodes to the input's own bytes, except the battery fields a
//   sample marks absent (their bytes are ignored on reading and written as 0);
// - the re-encoding decodes to the same batch.

import HistoryRecords

/// `input` with the ignored bytes (battery percent and state of samples that mark
/// them absent) zeroed, as the encoder writes them. The input has decoded, so every
/// offset here is inside it.
func canonical(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    let idLength = Int(bytes[12]) | Int(bytes[13]) << 8
    var p = 12 + 2 + idLength + 24
    let samples = Int(bytes[p]) | Int(bytes[p + 1]) << 8 | Int(bytes[p + 2]) << 16 | Int(bytes[p + 3]) << 24
    p += 4
    for _ in 0..<samples {
        let presence = bytes[p + 48]
        if presence & 1 == 0 { for k in 49..<53 { bytes[p + k] = 0 } }
        if presence & 2 == 0 { bytes[p + 53] = 0 }
        p += 54
    }
    return bytes
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
