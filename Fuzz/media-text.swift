// Fuzz target `media-text`: any bytes as the media helper's stdout (another program could sit
// at its path), read as the sampler reads it (MediaHelperOutput: appended, frames taken).
//
// Properties: reading never traps; at most MediaHelperOutput.maximumPlayers players, each with
// the figure playing (0 or 1) and at most a length (0...999,999,999 s), a status text that is
// `playing` exactly when the figure says so (else `paused` or `stopped`), source, label and
// texts within their limits and without a tab or a line break; a state other than connected
// gives no player; the input fed in two parts (split at its first byte's value) gives the same
// players and state as fed whole, when no line outruns the buffer.

import ProcFS
import SnapshotCodec

private func check(_ r: PartReading) {
    let playing = r[MediaPart.playing] ?? -1
    expect(playing == 0 || playing == 1, "a playing figure other than 0 or 1")
    expect(r.known & ~0b11 == 0, "a figure other than playing and the length")
    if let length = r[MediaPart.length] { expect(length >= 0 && length <= 999_999_999, "a length out of range") }
    let status = r.text(MediaPart.status)
    expect(status == Array("playing".utf8) ? playing == 1 : (playing == 0 && (status == Array("paused".utf8) || status == Array("stopped".utf8))),
           "a status that is not the playing figure's")
    expect(r.source.count <= Snapshot.maximumInterfaceNameLength && r.label.count <= Snapshot.maximumPathLength, "a name past its limit")
    var texts = [r.source, r.label]
    for t in 0..<MediaPart.part.texts.count {
        expect(r.text(t).count <= PartReading.maximumTextLength, "a text past its limit")
        texts.append(r.text(t))
    }
    for t in texts { expect(!t.contains(0x0A) && !t.contains(0x09), "a tab or a line break in a text") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let whole = MediaHelperOutput()
    whole.append(input)
    let took = whole.takeFrames()
    expect(whole.players.count <= MediaHelperOutput.maximumPlayers, "more players than kept")
    for r in whole.players { check(r) }
    if whole.state != .connected { expect(whole.players.isEmpty, "a player while not connected") }
    expect(whole.reason.count <= 255, "a reason past 255 bytes")
    if size > 0 && size < MediaHelperOutput.capacity {
        let cut = Int(input[0]) % (size + 1)
        let split = MediaHelperOutput()
        split.append(UnsafeRawBufferPointer(rebasing: input[0..<cut]))
        let first = split.takeFrames()
        split.append(UnsafeRawBufferPointer(rebasing: input[cut...]))
        let second = split.takeFrames()
        expect((first || second) == took, "a frame seen whole was lost, or one made up, when split")
        expect(split.state == whole.state && split.players == whole.players, "the players differ when the input comes in two reads")
    }
    return 0
}
