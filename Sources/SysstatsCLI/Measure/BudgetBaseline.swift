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

    /// Each budget's figures that were enough to judge a limit by: a peak of one sample, or a
    /// growth from half a second (`2465827405.66` bytes a minute), would be what later runs
    /// are held to.
    public init(_ results: [BudgetResult]) {
        var budgets: [String: [String: Double]] = [:]
        for r in results where r.failure == nil {
            budgets[r.budget.name] = r.figures.filter { $0.value.isFinite && (r.qualities[$0.key]?.isEnough ?? true) }
        }
        self.init(budgets: budgets)
    }

    public var json: String { MeasureReport.encode(self) + "\n" }

    /// Reads a baseline file (a regular file, not a symbolic link, at most 1 MiB); nil and
    /// the reason when it cannot be used: one line naming the file, and for a figure out of
    /// range (``BudgetBaselineFigures``) its budget and key.
    public static func read(path: String) -> Result<BudgetBaseline, BudgetBaselineError> {
        let shown = TerminalText.escape(path)
        let notBaseline = BudgetBaselineError(missing: false, message: "\(shown): not a sysstats budget baseline (version 1 JSON)")
        switch readRegularFile(path, limit: maximumSize) {
        case .failure(let e) where e.isMissing: return .failure(BudgetBaselineError(missing: true, message: "\(shown): no baseline yet (`sysstats budget record` writes one)"))
        case .failure(let e): return .failure(BudgetBaselineError(missing: false, message: "\(shown): \(e)"))
        case .success(let bytes):
            guard let json = JSONParser.parse(bytes) else { return .failure(notBaseline) }
            switch BudgetBaselineFigures.read(json) {
            case .success(let budgets): return .success(BudgetBaseline(budgets: budgets))
            case .failure(.notABaseline): return .failure(notBaseline)
            case .failure(.outOfRange(let budget, let key, let number)):
                return .failure(BudgetBaselineError(missing: false, message: "\(shown): budget '\(TerminalText.escape(budget))': "
                    + "\(TerminalText.escape(key)) is \(TerminalText.escape(number)), out of range (a baseline figure is "
                    + BudgetBaselineFigures.Problem.range(of: key) + ")"))
            }
        }
    }
}

public struct BudgetBaselineError: Error, Equatable {
    public var missing: Bool
    public var message: String
}
