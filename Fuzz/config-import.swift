// Fuzz target `config-import`: any bytes as another bar's config, read as `sysstats config
// import` reads a user's file (ConfigImport). The first byte picks the program (i3status,
// i3status-rust, waybar, polybar, in turn); the rest is the file, any bytes (decoded as the
// command decodes them). polybar's `include-file` gets the same text again.
//
// Properties:
// - reading and converting never trap, and end (libFuzzer's timeout);
// - a refusal names a line of the input (1 ≤ line ≤ its lines), or of the file it includes;
// - an accepted file's result is well-formed TOML, the same bytes when converted again,
//   and at most ImportedConfig.maximumModules modules;
// - each `# from` comment names a line of the input.

import ConfigImport
import TOML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let sources = ImportSource.allCases
    let source = sources[Int(data[0]) % sources.count]
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    var lines = 1
    for b in UnsafeBufferPointer(start: data + 1, count: size - 1) where b == 0x0A { lines += 1 }
    let include: (String) -> String? = { _ in text }
    do throws(ImportError) {
        let imported = try ConfigImporter.convert(text, from: source, bar: nil, include: include)
        expect(imported.items.count <= ImportedConfig.maximumModules, "more modules than the limit")
        let toml = imported.toml(shownFile: "config")
        let again = try ConfigImporter.convert(text, from: source, bar: nil, include: include).toml(shownFile: "config")
        expect(toml == again, "not the same bytes twice")
        let parsed = Array(toml.utf8).withUnsafeBytes { bytes -> String? in
            do throws(TOMLError) { _ = try TOMLDocument.parse(bytes); return nil } catch { return "\(error.line):\(error.column)" }
        }
        // Past the TOML reader's size limit is the one refusal the result may meet (a huge input).
        expect(parsed == nil || toml.utf8.count > TOMLDocument.maximumSize, "the result is not TOML at \(parsed ?? "")", Array(toml.utf8))
        for item in imported.items {
            if case .block(let b) = item { expect(b.line >= 0 && b.line <= lines, "a block from line \(b.line) of \(lines)") }
        }
    } catch {
        expect(error.line >= 0 && error.line <= lines, "a refusal outside the file: line \(error.line) of \(lines)")
    }
    return 0
}
