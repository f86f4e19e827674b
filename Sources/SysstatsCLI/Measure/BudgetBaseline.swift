import JSONCoding
import Glibc
import Bookmarks
import ProcFS

/// The baseline `budget record` writes and `budget check --baseline` compares with: each
/// budget's figures (bytes; growth in bytes per minute) from the run recorded.
public struct BudgetBaseline: Encodable, Equatable {
    public var version = 1
    public var budgets: [String: [String: Double]]

    public init(budgets: [String: [String: Double]]) { self.budgets = budgets }

    /// The largest baseline file read.
    public static let maximumSize = 1 << 20

    public init(_ results: [BudgetResult]) {
        var budgets: [String: [String: Double]] = [:]
        for r in results where r.failure == nil {
            budgets[r.budget.name] = r.figures.filter { $0.value.isFinite }
        }
        self.init(budgets: budgets)
    }

    public var json: String { MeasureReport.encode(self) + "\n" }

    /// The baseline a parsed file holds: an integer `version` and `budgets`, an object of
    /// objects of numbers; other members are ignored. Nil when it holds anything else.
    init?(json: JSONValue) {
        guard case .number(let v)? = json["version"], let version = Int(v),
              case .object(let members)? = json["budgets"] else { return nil }
        var budgets: [String: [String: Double]] = [:]
        for (name, figuresJSON) in members {
            guard case .object(let figureMembers) = figuresJSON else { return nil }
            var figures: [String: Double] = [:]
            for (figure, value) in figureMembers {
                guard let number = value.double else { return nil }
                figures[figure] = number
            }
            budgets[name] = figures
        }
        self.init(budgets: budgets)
        self.version = version
    }

    /// Reads a baseline file (a regular file, not a symbolic link, at most 1 MiB); nil and
    /// the reason when it cannot be used.
    public static func read(path: String) -> Result<BudgetBaseline, BudgetBaselineError> {
        let shown = TerminalText.escape(path)
        switch readRegularFile(path, limit: maximumSize) {
        case .failure(let e) where e.isMissing: return .failure(BudgetBaselineError(missing: true, message: "\(shown): no baseline yet (`sysstats budget record` writes one)"))
        case .failure(let e): return .failure(BudgetBaselineError(missing: false, message: "\(shown): \(e)"))
        case .success(let bytes):
            guard let json = JSONParser.parse(bytes), let baseline = BudgetBaseline(json: json), baseline.version == 1 else {
                return .failure(BudgetBaselineError(missing: false, message: "\(shown): not a sysstats budget baseline (version 1 JSON)"))
            }
            return .success(baseline)
        }
    }
}

public struct BudgetBaselineError: Error, Equatable {
    public var missing: Bool
    public var message: String
}
