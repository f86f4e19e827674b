#if canImport(Glibc)
import Glibc
#endif
import ProcFS

/// `budget check --png DIR`: one chart per budget that ran (``MeasureChart``, its limit
/// drawn), named after the budget.
public enum BudgetCharts {
    /// A budget's name as a file name: letters, digits, `.`, `_` and `-` kept, anything
    /// else `-`, at most 64 bytes, never hidden; `.png` added.
    public static func fileName(_ name: String) -> String {
        var bytes = Array(name.utf8.prefix(64)).map { b -> UInt8 in
            let keep = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x2D
            return keep ? b : 0x2D
        }
        if bytes.first == 0x2E || bytes.isEmpty { bytes.insert(0x2D, at: 0) }
        return String(decoding: bytes, as: UTF8.self) + ".png"
    }

    /// Writes the charts into `directory` (made when missing); nil, or what failed. Two
    /// names that become the same file name get `-2`, `-3` ….
    public static func write(_ results: [BudgetResult], to directory: String) -> String? {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { return "cannot make \(directory): \(Errno.current)" }
        var used: Set<String> = []
        for r in results {
            guard let summary = r.summary else { continue }
            var name = fileName(r.budget.name), n = 1
            while used.contains(name) { n += 1; name = String(fileName(r.budget.name).dropLast(4)) + "-\(n).png" }
            used.insert(name)
            let chart = MeasureChart(summary, command: [r.budget.name], limit: r.chartLimit.map { ("\($0.key) limit", $0.bytes) })
            if let problem = PNG.writeFile(chart.png(), to: directory + "/" + name) { return "cannot write \(directory)/\(name): \(problem)" }
        }
        return nil
    }
}
