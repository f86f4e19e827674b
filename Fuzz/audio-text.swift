// Fuzz target `audio-text`: any bytes as the sound helper's stdout (another program could sit
// at its path), read as the sampler reads it (AudioHelperOutput: appended, frames taken).
//
// Properties: reading never traps; the default output and input, where given, have a volume
// within 0...AudioHelperOutput.maximumVolume, a mute flag of 0 or 1, only those two figures,
// a port and a description within the readings' limits and without a tab or a line break;
// a state other than connected gives no device; the input fed in two parts (split at its
// first byte's value) gives the same devices and state as fed whole, when no line outruns
// the buffer.

import ProcFS
import SnapshotCodec

private func check(_ r: PartReading?) {
    guard let r else { return }
    let volume = r[VolumePart.volume] ?? -1, muted = r[VolumePart.muted] ?? -1
    expect(volume >= 0 && volume <= AudioHelperOutput.maximumVolume, "a volume out of range")
    expect(muted == 0 || muted == 1, "a mute flag other than 0 or 1")
    expect(r.known == 0b11, "a figure other than the volume and the mute flag")
    expect(r.source.count <= Snapshot.maximumInterfaceNameLength && r.label.count <= Snapshot.maximumPathLength, "a text past its limit")
    expect(!r.source.contains(0x0A) && !r.label.contains(0x0A) && !r.source.contains(0x09) && !r.label.contains(0x09),
           "a tab or a line break in a text")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let whole = AudioHelperOutput()
    whole.append(input)
    let took = whole.takeFrames()
    check(whole.output)
    check(whole.input)
    if whole.state != .connected { expect(whole.output == nil && whole.input == nil, "a device while not connected") }
    expect(whole.reason.count <= 255, "a reason past 255 bytes")
    if size > 0 && size < AudioHelperOutput.capacity {
        let cut = Int(input[0]) % (size + 1)
        let split = AudioHelperOutput()
        split.append(UnsafeRawBufferPointer(rebasing: input[0..<cut]))
        let first = split.takeFrames()
        split.append(UnsafeRawBufferPointer(rebasing: input[cut...]))
        let second = split.takeFrames()
        expect((first || second) == took, "a frame seen whole was lost, or one made up, when split")
        expect(split.state == whole.state && split.output == whole.output && split.input == whole.input,
               "the devices differ when the input comes in two reads")
    }
    return 0
}
