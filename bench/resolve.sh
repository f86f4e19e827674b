#!/usr/bin/env bash
# Times NameResolver.resolve with the built-in bookmarks (release, -O -wmo), for the
# cost note in Sources/Bookmarks/RuleMatching.swift: nanoseconds per process for a
# few typical and worst cases. Needs only the toolchain; writes to a temporary folder.
#
#   bench/resolve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/main.swift" <<'SWIFT'
#if canImport(Glibc)
import Glibc
#endif
func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec) }
func b(_ s: String) -> [UInt8] { Array(s.utf8) }
let resolver = NameResolver.builtin
let longLine = b("/usr/lib/jvm/java-17/bin/java -Xmx2g -cp " + String(repeating: "/some/long/class/path.jar:", count: 40) + " com.example.Main")
let cases: [(String, [UInt8], [UInt8], [UInt8])] = [
    ("matches the first rule (Firefox tab)", b("Isolated Web Co"), b("firefox"), b("/usr/lib/firefox/firefox -contentproc")),
    ("kernel worker (glob)", b("kworker/3:1-events"), [], []),
    ("matches a last rule (Electron renderer)", b("slack"), b("slack"), b("/usr/lib/slack/slack --type=renderer --x")),
    ("no rule, short command line", b("bash"), b("bash"), b("-bash")),
    ("no rule, \(longLine.count)-byte command line", b("java"), b("java"), longLine),
]
var out: [UInt8] = []
out.reserveCapacity(64)
var sink = 0
print("\(resolver.rules.count) rules")
for (label, comm, exe, line) in cases {
    let n = 100_000
    var best = Double.infinity
    for _ in 0..<5 {
        let t0 = now()
        comm.withUnsafeBytes { c in exe.withUnsafeBytes { e in line.withUnsafeBytes { l in
            for _ in 0..<n { if resolver.resolve(comm: c, executable: e, commandLine: l, into: &out) { sink &+= out.count } }
        }}}
        best = min(best, (now() - t0) / Double(n))
    }
    print("\(Int(best)) ns  \(label)")
}
if sink == 42 { print("") }
SWIFT
# UTF8Text is a module of its own (Bookmarks imports it); compiling in $out keeps swiftc's
# by-products (resolve-1.swiftmodule, …) out of the checkout.
swiftc -O -wmo -parse-as-library -module-name UTF8Text -emit-module -emit-module-path "$out/UTF8Text.swiftmodule" \
    -emit-object -o "$out/UTF8Text.o" Sources/UTF8Text/*.swift
root=$(pwd)
(cd "$out" && swiftc -O -wmo -I "$out" "$root"/Sources/Bookmarks/*.swift "$out/main.swift" "$out/UTF8Text.o" -o "$out/resolve")
"$out/resolve"
