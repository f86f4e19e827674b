import JSONCoding

/// The figures of a baseline file, checked where they enter: `budget check --baseline`
/// reads a file anyone with write access to it may have written, and a figure of 2^64 or
/// more (`1e20`, `1e999`, `18446744073709551616`) trapped where it became a `UInt64`: nothing
/// printed, no JUnit written. The standard library and JSONCoding alone: the `json` fuzz
/// target compiles this file.
public enum BudgetBaselineFigures {
    /// The largest figure a baseline holds: 2^53 bytes (8 PiB; a growth, bytes a minute, as
    /// far below 0), the largest whole number a JSON number (a Double) holds exactly, and
    /// thousands of times any program's memory.
    public static let maximum: Double = 9_007_199_254_740_992

    /// The one figure that may be below 0: a shrinking tree's slope.
    public static let signedKey = "growth_per_minute"

    /// Why a parsed file is not a baseline this build reads.
    public enum Problem: Error, Equatable {
        /// Not an object with `"version": 1` and `budgets`, an object of objects of numbers.
        case notABaseline
        /// A figure that is not a finite number within its range: the budget and key as the
        /// file spells them (escape them before printing), the number's text (at most 32 bytes).
        case outOfRange(budget: String, key: String, number: String)

        /// The range of `key`'s figures, as a message says it.
        public static func range(of key: String) -> String {
            key == BudgetBaselineFigures.signedKey ? "bytes a minute from -2^53 to 2^53" : "bytes from 0 to 2^53"
        }
    }

    /// Each budget's figures (version 1; other members ignored, the last of a repeated key
    /// taken), or the first problem.
    public static func read(_ json: JSONValue) -> Result<[String: [String: Double]], Problem> {
        guard case .number(let version)? = json["version"], Double(version) == 1,
              case .object(let members)? = json["budgets"] else { return .failure(.notABaseline) }
        var budgets: [String: [String: Double]] = [:]
        for (name, figuresJSON) in members {
            guard case .object(let figureMembers) = figuresJSON else { return .failure(.notABaseline) }
            var figures: [String: Double] = [:]
            for (key, value) in figureMembers {
                guard case .number(let text) = value, let number = Double(text) else { return .failure(.notABaseline) }
                guard accepts(number, key: key) else {
                    let shown = text.utf8.count > 32 ? String(decoding: text.utf8.prefix(29), as: UTF8.self) + "..." : text
                    return .failure(.outOfRange(budget: name, key: key, number: shown))
                }
                figures[key] = number
            }
            budgets[name] = figures
        }
        return .success(budgets)
    }

    /// Whether `number` is a figure `key` may have: finite, at most ``maximum``, not below 0
    /// (but for ``signedKey``, at least -``maximum``).
    public static func accepts(_ number: Double, key: String) -> Bool {
        number.isFinite && number <= maximum && number >= (key == signedKey ? -maximum : 0)
    }
}
