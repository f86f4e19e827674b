// Fuzz target `smaps`: any bytes as /proc/PID/smaps → SmapsMappings.parse, as `sysstats
// measure` reads it at a process's new high (its mapped files' names are the process's to
// choose) — the CLI's Foundation-free file compiled as a module.
//
// Properties: parsing never traps; at most SmapsMappings.maximumKinds kinds plus `other`,
// each with a unique name of 1 to maximumNameBytes bytes without a line break, at least one
// mapping, largest RSS first; `largest(_, 3)` keeps at most four kinds whose RSS sums
// (saturating) to the same as all of them.

import SmapsMappings

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let kinds = SmapsMappings.parse(UnsafeRawBufferPointer(start: data, count: size))
    expect(kinds.count <= SmapsMappings.maximumKinds + 1, "\(kinds.count) kinds")
    var names = Set<[UInt8]>()
    for (i, k) in kinds.enumerated() {
        expect(!k.name.isEmpty && k.name.count <= SmapsMappings.maximumNameBytes, "a name of \(k.name.count) bytes", k.name)
        expect(!k.name.contains(0x0A), "a line break in a name", k.name)
        expect(names.insert(k.name).inserted, "a name twice", k.name)
        expect(k.mappings >= 1, "a kind without a mapping", k.name)
        if i > 0 { expect(kinds[i - 1].rssKiB >= k.rssKiB, "not largest first") }
    }
    let top = SmapsMappings.largest(kinds, 3, by: { $0.rssKiB })
    expect(top.count <= 4, "\(top.count) kinds kept of 3")
    expect(saturatingSum(top.map(\.rssKiB)) == saturatingSum(kinds.map(\.rssKiB)), "the kept kinds and other do not sum to all")
    return 0
}

func saturatingSum(_ values: [UInt64]) -> UInt64 {
    values.reduce(0) { let (s, o) = $0.addingReportingOverflow($1); return o ? .max : s }
}
