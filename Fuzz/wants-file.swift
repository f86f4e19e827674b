// Fuzz target `wants-file`: any bytes as a renderer's `wants/<pid>` file, parsed as the
// sampler does (RendererRequest(wantsFile:)).
//
// Properties: parsing never traps; what it accepts holds only parts this version knows and
// at most eight names of each kind, each a non-empty name without control bytes within
// the length limit; `top gpu` asks the GPU part too; the canonical text of an accepted value (what sysstats-bar writes)
// parses to the same value; and a first line that is one to ten digits of a value up to
// UInt32.max decides acceptance, whatever follows (a newer renderer's lines are passed over).

import SnapshotCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let parsed = RendererRequest(wantsFile: input)
    if let parsed {
        expect(SnapshotSections.all.isSuperset(of: parsed.parts), "an unknown part was accepted")
        expect(!parsed.gpuClients || parsed.parts.contains(.gpu), "the GPU clients asked without the GPU part")
        for names in [parsed.disks, parsed.sensors, parsed.interfaces] {
            expect(names.count <= RendererRequest.maximumNames, "too many names kept")
            for name in names {
                expect(!name.isEmpty && name.count <= RendererRequest.maximumNameLength, "a bad name's length", name)
                expect(name.allSatisfy { $0 >= 0x20 && $0 != 0x7F }, "a control byte in a name", name)
            }
        }
        let text = parsed.wantsFileText
        let again = text.withUnsafeBytes { RendererRequest(wantsFile: $0) }
        expect(again == parsed, "the written text does not parse back", text)
    }
    let bytes = Array(input)
    let firstLine = bytes.firstIndex(of: 0x0A).map { Array(bytes[..<$0]) } ?? bytes
    if size <= RendererRequest.maximumFileSize, !firstLine.isEmpty, firstLine.count <= 10,
       firstLine.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        var value: UInt64 = 0
        for b in firstLine { value = value * 10 + UInt64(b - 0x30) }
        if value <= UInt64(UInt32.max) {
            expect(parsed != nil, "a well-formed file was refused", bytes)
        } else {
            expect(parsed == nil, "a value over UInt32.max was accepted", bytes)
        }
    }
    return 0
}
