#!/bin/sh
# Compiles Sources/TOML in Embedded Swift mode (as the Embedded renderer will, under the
# name TOMLEmbedded), unoptimised and with -Osize, then compiles a small Embedded client
# against it that calls every public entry point (the collection conformances' generic
# algorithms are only instantiated in a client). Exits non-zero if any compile fails or
# warns: Embedded restrictions such as untyped throws are only warnings in Swift 6.3, so
# warnings count as errors here. The same way as scripts/check-embedded-codec.sh:
# needs only the toolchain, writes to a temporary directory, does not link.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
target="$(uname -m)-unknown-linux-gnu"
cat > "$out/client.swift" <<'SWIFT'
import TOMLEmbedded

public func readConfig(_ file: UnsafeRawBufferPointer, _ bytes: [UInt8], _ out: inout [UInt8]) -> Int {
    let document: TOMLDocument
    do throws(TOMLError) {
        document = try TOMLDocument.parse(file)
    } catch {
        error.describe(file: [0x63], into: &out)
        return error.line &+ error.column &+ error.offset &+ Int(error.reason.rawValue)
    }
    var total = document.valueCount
    let root = document.root
    for entry in root {
        out.append(contentsOf: entry.key)
        entry.kind.name.withUTF8Buffer { out.append(contentsOf: $0) }
        total &+= entry.line &+ entry.column &+ entry.keyLine &+ entry.keyColumn &+ entry.index
        if let s = entry.string { out.append(contentsOf: s) }
        if let s = entry.stringBytes { out.append(contentsOf: s) }
        if let i = entry.integer { total &+= Int(truncatingIfNeeded: i) }
        if let f = entry.float, f > 1 { total &+= 1 }
        if entry.bool == true { total &+= 1 }
        if let a = entry.array {
            total &+= a.count &+ (a.isArrayOfTables ? 1 : 0) &+ a.value.index
            for element in a { total &+= element.table?.count ?? 0 }
            if !a.isEmpty { total &+= a[0].index &+ (a.last?.index ?? 0) }
        }
        if let t = entry.table {
            total &+= t.count &+ t.value.index
            if let p = t.value.parent { total &+= p.index }
        }
    }
    total &+= root["interval"]?.integer.map { Int(truncatingIfNeeded: $0) } ?? 0
    total &+= root[bytes]?.index ?? 0
    total &+= file.isEmpty ? 0 : root[file]?.index ?? 0
    total &+= document.value(at: 1)?.index ?? 0
    total &+= TOMLDocument.maximumSize &+ TOMLDocument.maximumDepth &+ TOMLDocument.maximumStringLength
        &+ TOMLDocument.maximumKeyLength
    if let again = try? TOMLDocument.parse(bytes) { total &+= again.valueCount }
    for reason in TOMLError.Reason.allCases { total &+= reason.message.utf8CodeUnitCount }
    for kind in TOMLKind.allCases { total &+= kind.name.utf8CodeUnitCount }
    return total
}
SWIFT
for opt in -Onone -Osize; do
    # The parser's one dependency, under the name its Embedded twin has in the package.
    swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors "$opt" \
        -target "$target" \
        -emit-module -module-name UTF8TextEmbedded -emit-module-path "$out/UTF8TextEmbedded.swiftmodule" \
        -c -o "$out/utf8.o" Sources/UTF8Text/*.swift
    swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors "$opt" \
        -target "$target" -I "$out" \
        -module-alias UTF8Text=UTF8TextEmbedded \
        -emit-module -module-name TOMLEmbedded -emit-module-path "$out/TOMLEmbedded.swiftmodule" \
        -c -o "$out/toml.o" Sources/TOML/*.swift
    swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors "$opt" \
        -target "$target" -I "$out" -module-name EmbeddedClient \
        -c -o "$out/client.o" "$out/client.swift"
    echo "embedded TOML and client ($opt, $target): ok"
done
