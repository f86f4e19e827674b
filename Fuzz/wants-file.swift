// Fuzz target `wants-file`: any bytes as a renderer's `wants/<pid>` file, parsed as the
// sampler does (SnapshotSections(wantsFile:)).
//
// Properties: parsing never traps; what it accepts holds only parts this version knows;
// the canonical text of an accepted value (what sysstats-bar writes) parses to the same
// value; and an input that is one to ten digits of a value up to UInt32.max, with or
// without a newline, is accepted.

import SnapshotCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let parsed = SnapshotSections(wantsFile: input)
    if let parsed {
        expect(SnapshotSections.all.isSuperset(of: parsed), "an unknown part was accepted")
        let text = parsed.wantsFileText
        let again = text.withUnsafeBytes { SnapshotSections(wantsFile: $0) }
        expect(again == parsed, "the written text does not parse back", text)
    }
    var body = Array(input)
    if body.last == 0x0A { body.removeLast() }
    if !body.isEmpty, body.count <= 10, body.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        var value: UInt64 = 0
        for b in body { value = value * 10 + UInt64(b - 0x30) }
        if value <= UInt64(UInt32.max) {
            expect(parsed != nil, "a well-formed file was refused", Array(input))
        } else {
            expect(parsed == nil, "a value over UInt32.max was accepted", Array(input))
        }
    }
    return 0
}
