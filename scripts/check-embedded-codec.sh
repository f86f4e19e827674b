#!/bin/sh
# Compiles Sources/SnapshotCodec in Embedded Swift mode (as the Embedded
# renderer will), unoptimised and with -Osize, then compiles a small Embedded
# client against it that calls every public entry point (generic ones such as
# NameSanitizer.sanitize are only instantiated in a client). Exits non-zero if
# any compile fails or warns: Embedded restrictions such as untyped throws are
# only warnings in Swift 6.3, so warnings count as errors here.
# Needs only the toolchain; writes to a temporary directory. Does not link.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
target="$(uname -m)-unknown-linux-gnu"
cat > "$out/client.swift" <<'SWIFT'
import SnapshotCodec

public func renderStep(_ file: UnsafeRawBufferPointer, _ snapshot: inout Snapshot,
                       _ scratch: inout [UInt8], _ name: inout [UInt8]) -> UInt32 {
    do throws(SnapshotDecodeError) {
        try snapshot.decode(from: file)
    } catch {
        _ = error.message
        return 0
    }
    snapshot.encode(into: &scratch)
    NameSanitizer.sanitize(file, into: &name)
    NameSanitizer.sanitize(scratch, into: &name)
    NameSanitizer.sanitize(scratch[1...], into: &name)
    let copy = try? Snapshot.decode(file)
    return CRC32.checksum(file) &+ UInt32(copy?.coreBusy.count ?? 0)
        &+ (snapshot.isStale(nowMs: 0) ? 1 : 0)
}
SWIFT
for opt in -Onone -Osize; do
    # The codec's one dependency, under the name its Embedded twin has in the package.
    swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors "$opt" \
        -target "$target" \
        -emit-module -module-name UTF8TextEmbedded -emit-module-path "$out/UTF8TextEmbedded.swiftmodule" \
        -c -o "$out/utf8.o" Sources/UTF8Text/*.swift
    swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors "$opt" \
        -target "$target" -I "$out" -Xcc -fmodule-map-file=Sources/CCRC32/include/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CDirect/include/module.modulemap -module-alias UTF8Text=UTF8TextEmbedded \
        -emit-module -module-name SnapshotCodec -emit-module-path "$out/SnapshotCodec.swiftmodule" \
        -c -o "$out/codec.o" Sources/SnapshotCodec/*.swift Sources/SnapshotCodec/Sections/*.swift Sources/SnapshotCodec/Parts/*.swift
    swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors "$opt" \
        -target "$target" -I "$out" -Xcc -fmodule-map-file=Sources/CCRC32/include/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CDirect/include/module.modulemap -module-name EmbeddedClient \
        -c -o "$out/client.o" "$out/client.swift"
    echo "embedded SnapshotCodec and client ($opt, $target): ok"
done
