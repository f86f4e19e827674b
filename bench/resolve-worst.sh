#!/usr/bin/env bash
# Times NameResolver over the most expensive bookmarks files the parser accepts
# (bench/make-worst-bookmarks.py), for the bound in docs/performance.md: milliseconds
# to resolve 1,000 processes whose names no rule matches (comm 15 bytes, executable
# basename 255 bytes, a 256-byte command line as the sampler keeps it, then a 4 KiB
# one as the CLI may see; all 'a's, the command line ending in "ba"), median of 5
# runs, and how many processes ran out of the resolver's work budget. Release (-O -wmo), in-process; needs only the toolchain and
# python3; writes to a temporary folder.
#
#   bench/resolve-worst.sh              # 1,000 processes, 5 runs
#   PROCS=20 RUNS=1 bench/resolve-worst.sh   # for a slow build (before the budget)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 bench/make-worst-bookmarks.py "$out" 2>/dev/null
budget=()
grep -q 'outOfBudget' Sources/Bookmarks/NameResolver.swift && budget=(-D BUDGET)
cat > "$out/main.swift" <<'SWIFT'
#if canImport(Glibc)
import Glibc
#endif
func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6 }
func env(_ name: String, _ fallback: Int) -> Int { getenv(name).flatMap { Int(String(cString: $0)) } ?? fallback }
func read(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { fatalError(path) }
    defer { fclose(f) }
    var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
    while true { let n = fread(&chunk, 1, chunk.count, f); if n <= 0 { break }; bytes += chunk[0..<n] }
    return bytes
}
let processes = env("PROCS", 1000), runs = env("RUNS", 5)
let comm = [UInt8](repeating: 0x61, count: 15), exe = [UInt8](repeating: 0x61, count: 255)
var sets: [(String, NameResolver)] = [("built-in rules", NameResolver.builtin)]
for path in CommandLine.arguments.dropFirst() {
    let file = try! BookmarkFile.parse(read(path))
    let name = path.split(separator: "/").last!.split(separator: ".").first!
    sets.append(("\(name) (\(file.rules.count) rules)", NameResolver(rules: file.rules)))
}
print("| rules | command line | ms per \(processes) processes (median of \(runs)) | budget hits |")
print("|---|---|---|---|")
var out: [UInt8] = []
out.reserveCapacity(64)
var sink = 0
for (label, resolver) in sets {
    for lineLength in [256, 4096] {
        let line = [UInt8](repeating: 0x61, count: lineLength - 2) + [0x62, 0x61]
        var times: [Double] = []
        var hits = 0
        for _ in 0..<runs {
            hits = 0
            let t0 = now()
            comm.withUnsafeBytes { c in exe.withUnsafeBytes { e in line.withUnsafeBytes { l in
                for _ in 0..<processes {
#if BUDGET
                    var outOfBudget = false
                    if resolver.resolveRule(comm: c, executable: e, commandLine: l, into: &out, outOfBudget: &outOfBudget) != nil { sink &+= 1 }
                    if outOfBudget { hits += 1 }
#else
                    if resolver.resolve(comm: c, executable: e, commandLine: l, into: &out) { sink &+= 1 }
#endif
                }
            }}}
            times.append(now() - t0)
        }
        times.sort()
#if BUDGET
        let hitText = "\(hits)"
#else
        let hitText = "(no budget)"
#endif
        print("| \(label) | \(lineLength) B | \(Double(Int(times[times.count / 2] * 10)) / 10) | \(hitText) |")
    }
}
if sink == 42 { print("") }
SWIFT
# UTF8Text is a module of its own (Bookmarks imports it); compiling in $out keeps swiftc's
# by-products (resolve-1.swiftmodule, …) out of the checkout.
swiftc -O -wmo -parse-as-library -module-name UTF8Text -emit-module -emit-module-path "$out/UTF8Text.swiftmodule" \
    -emit-object -o "$out/UTF8Text.o" Sources/UTF8Text/*.swift
root=$(pwd)
(cd "$out" && swiftc -O -wmo ${budget[@]+"${budget[@]}"} -I "$out" "$root"/Sources/Bookmarks/*.swift "$out/main.swift" "$out/UTF8Text.o" -o "$out/resolve")
"$out/resolve" "$out"/glob-stars.sysstats-bookmarks "$out"/glob-stars-open.sysstats-bookmarks "$out"/glob-segment.sysstats-bookmarks \
    "$out"/glob-bracket.sysstats-bookmarks "$out"/cmdline.sysstats-bookmarks
