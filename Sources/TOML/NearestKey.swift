// The key a misspelt one was probably meant to be, for the config readers' errors
// (`unknown key "blok"; did you mean "block"?`).

/// The one of `known` that `key` most likely misspells: at most two edits away (one for a
/// key of four bytes or fewer), the nearest first; nil when none is.
public func nearestKey(_ key: ArraySlice<UInt8>, _ known: [StaticString]) -> StaticString? {
    guard key.count <= 64 else { return nil }
    var best: StaticString? = nil
    var bestDistance = key.count <= 4 ? 2 : 3
    for candidate in known {
        let d = editDistance(key, candidate)
        if d < bestDistance { best = candidate; bestDistance = d }
    }
    return best
}

/// The edits (insert, delete, replace, swap of two neighbours) that turn `a` into `b`.
public func editDistance(_ a: ArraySlice<UInt8>, _ b: StaticString) -> Int {
    let x = Array(a)
    var y: [UInt8] = []
    for i in 0..<b.utf8CodeUnitCount { y.append(b.utf8Start[i]) }
    if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
    // Three rows of the table: two back (for a swap), the last, this one.
    var twoBack = [Int](repeating: 0, count: y.count + 1)
    var last = Array(0...y.count)
    var row = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        row[0] = i
        for j in 1...y.count {
            let cost = x[i - 1] == y[j - 1] ? 0 : 1
            var d = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
            if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = min(d, twoBack[j - 2] + 1) }
            row[j] = d
        }
        twoBack = last
        last = row
    }
    return last[y.count]
}
