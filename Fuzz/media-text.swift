// Fuzz target `media-text`: any bytes as the media helper's stdout (another program could sit
// at its path), read as the sampler reads it (MediaHelperOutput: appended, frames taken).
//
// Properties: reading never traps; at most MediaHelperOutput.maximumPlayers players, each with
// the figure playing (0 or 1) and at most a length (0...999,999,999 s), a status text that is
// `playing` exactly when the figure says so (else `paused` or `stopped`), source, label and
// texts within their limits and without a tab or a line break; a state other than connected
// gives no player; the input fed in two parts (split at its first byte's value) gives the same
// players and state as fed whole, when no line outruns the buffer. The players shown at any
// time (their positions counted on) are the same players, each position within 0 and the
// track's length, none where the frame gave none.

import ProcFS
import SnapshotCodec

private func check(_ r: PartReading) {
    let playing = r[MediaPart.playing] ?? -1
    expect(playing == 0 || playing == 1, "a playing figure other than 0 or 1")
    expect(r.known & ~0b111 == 0, "a figure other than playing, the length and the position")
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
    whole.clock = { 5_000_000_000 }
    whole.append(input)
    let took = whole.takeFrames()
    expect(whole.players.count <= MediaHelperOutput.maximumPlayers, "more players than kept")
    for r in whole.players { check(r) }
    if whole.state != .connected { expect(whole.players.isEmpty, "a player while not connected") }
    for r in whole.players { expect(r[MediaPart.position] == nil, "a frame's own reading with a position") }
    for now in [UInt64(0), 5_000_000_000 &+ UInt64(size) &* 999_999_937, UInt64.max] {
        let shown = whole.shown(atNs: now)
        expect(shown.count == whole.players.count, "players shown that the frame does not have")
        for i in 0..<shown.count {
            check(shown[i])
            expect(shown[i].source == whole.players[i].source && shown[i].texts == whole.players[i].texts, "a player shown changed")
            guard let position = shown[i][MediaPart.position] else { continue }
            expect(position >= 0 && position <= (shown[i][MediaPart.length] ?? Int64.max), "a position out of range")
        }
    }
    expect(whole.reason.count <= 255, "a reason past 255 bytes")
    if size > 0 && size < MediaHelperOutput.capacity {
        let cut = Int(input[0]) % (size + 1)
        let split = MediaHelperOutput()
        split.clock = whole.clock
        split.append(UnsafeRawBufferPointer(rebasing: input[0..<cut]))
        let first = split.takeFrames()
        split.append(UnsafeRawBufferPointer(rebasing: input[cut...]))
        let second = split.takeFrames()
        expect((first || second) == took, "a frame seen whole was lost, or one made up, when split")
        expect(split.state == whole.state && split.players == whole.players, "the players differ when the input comes in two reads")
    }
    return 0
}
