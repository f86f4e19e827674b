// Fuzz target `i3blocks-config`: any bytes as an i3blocks config file, read as
// `sysstats config import i3blocks` reads a user's file (I3blocksImport).
//
// Properties:
// - converting and checking never trap;
// - a refusal by the i3blocks reader names a line of the input (1 ≤ line ≤ its lines);
// - the TOML written for an accepted file is well-formed TOML whenever the input is valid
//   UTF-8 without NUL (every value escaped, every key bare or quoted), so a problem is
//   always a config problem reported at a line of the input, never the importer's own;
// - each line of the TOML is traced to a line of the input or to none (0).

import BarCore
import TOML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var lines = 1
    for b in input where b == 0x0A { lines += 1 }
    switch I3blocksImport.convert(input, folder: Array("/home/u/.config/i3blocks".utf8)) {
    case .failure(let e):
        expect(e.line >= 1 && e.line <= lines, "a refusal outside the file: line \(e.line) of \(lines)")
    case .success(let converted):
        var tomlLines = 0
        for b in converted.toml where b == 0x0A { tomlLines += 1 }
        expect(converted.sourceLines.count == tomlLines + 1, "a TOML line without its source line")
        for source in converted.sourceLines { expect(source >= 0 && source <= lines, "a source line outside the file") }
        if isValidUTF8(input) && !input.contains(0) {
            let parsed = converted.toml.withUnsafeBytes { bytes -> String? in
                do throws(TOMLError) { _ = try TOMLDocument.parse(bytes); return nil } catch { return "\(error.line):\(error.column)" }
            }
            expect(parsed == nil, "the TOML written is not TOML at \(parsed ?? "")", converted.toml)
        }
        if case .failure(let e) = I3blocksImport.blocks(from: input) {
            expect(e.line >= 0 && e.line <= lines, "a config problem outside the file: line \(e.line)")
        }
    }
    return 0
}
