#!/bin/sh
# Compiles Sources/SnapshotCodec in Embedded Swift mode (as the Embedded
# renderer will), once unoptimised and once with -Osize. Exits non-zero if
# either compile fails or warns (Embedded restrictions such as untyped throws
# are only warnings in Swift 6.3, so warnings count as errors here).
# Needs only the toolchain; writes to a temporary directory.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
target="$(uname -m)-unknown-linux-gnu"
for opt in -Onone -Osize; do
    swiftc -enable-experimental-feature Embedded -wmo -parse-as-library -warnings-as-errors "$opt" \
        -target "$target" \
        -emit-module -module-name SnapshotCodec -emit-module-path "$out/SnapshotCodec.swiftmodule" \
        -c -o "$out/codec.o" Sources/SnapshotCodec/*.swift
    echo "embedded SnapshotCodec ($opt, $target): ok"
done
