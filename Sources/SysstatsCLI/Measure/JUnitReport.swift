/// `budget check --junit FILE`: one JUnit XML test suite, a test case per budget, for CI
/// dashboards (GitLab's and Jenkins' readers, GitHub actions that publish test results).
public enum JUnitReport {
    public static func xml(_ results: [BudgetResult], suite: String = "sysstats budget") -> String {
        let errors = results.filter(\.isError).count
        let failures = results.filter { !$0.passed && !$0.isError }.count
        let total = results.reduce(0) { $0 + $1.wallMs }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(total))\">\n"
        out += "  <testsuite name=\"\(escape(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(total))\">\n"
        for r in results {
            out += "    <testcase classname=\"sysstats-budget\" name=\"\(escape(r.budget.name))\" time=\"\(seconds(r.wallMs))\""
            if r.passed {
                out += ">\n      <system-out>\(escape(r.line))</system-out>\n    </testcase>\n"
            } else if r.isError {
                // "run": nothing ran to check (command, setup, stop, filter); "unmeasured": a limit's figure was not had.
                let type = r.failure != nil && r.checks.isEmpty ? "run" : "unmeasured"
                out += ">\n      <error message=\"\(escape(r.line))\" type=\"\(type)\">\(escape(r.line))</error>\n    </testcase>\n"
            } else {
                out += ">\n      <failure message=\"\(escape(r.line))\" type=\"budget\">\(escape(r.line))</failure>\n    </testcase>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    static func seconds(_ ms: UInt64) -> String { fixed(Double(ms) / 1000, decimals: 3) }

    /// Text for an XML attribute or element: the five markup characters as entities, and the
    /// characters XML 1.0 cannot hold at all (controls but tab, newline, return) as U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                out.unicodeScalars.append(v < 0x20 || v == 0xFFFE || v == 0xFFFF ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}
