// Fuzz target `budget-file`: bytes → BudgetFile.parse, as `sysstats budget check` reads a
// sysstats-budget.toml from a repository (whose commands it then runs).
//
// Properties:
// - parsing never traps;
// - a refusal is one line of printable ASCII (it quotes the file's text, which may hold
//   terminal controls) at a position inside the file (line ≥ 1, column ≥ 1, line at most the
//   file's line count);
// - an accepted file gives at most 256 budgets with unique, printable names of 1 to 128
//   bytes, a command without NUL or else a pid (1 to 2^22) or a pid file's path to follow,
//   an interval of at least 1 ms, a process name of at most 15
//   bytes and at least one limit; each budget's line is a line of the file, and each of its
//   keys' lines (where a failed limit's line points) one from there on.

import BudgetFile

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    do throws(BudgetFileError) {
        let budgets = try BudgetFile.parse(bytes)
        expect(budgets.count >= 1 && budgets.count <= BudgetFile.maximumBudgets, "\(budgets.count) budgets accepted")
        var names = Set<String>()
        for b in budgets {
            expect(names.insert(b.name).inserted, "two budgets named \(b.name)")
            expect(!b.name.isEmpty && b.name.utf8.count <= 128, "a name of \(b.name.utf8.count) bytes", Array(b.name.utf8))
            expect(b.name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }, "a name with a control", Array(b.name.utf8))
            switch b.attach {
            case nil: expect(!b.command.isEmpty && !b.command.utf8.contains(0), "an empty command or one with NUL", Array(b.command.utf8))
            case .pid(let pid)?: expect(b.command.isEmpty && pid >= 1 && pid <= 4_194_304, "pid \(pid) beside a command or out of range")
            case .pidfile(let path)?:
                expect(b.command.isEmpty && !path.isEmpty && path.utf8.count <= 4096 && !path.utf8.contains(0),
                       "a pidfile beside a command, empty, too long or with NUL", Array(path.utf8))
            }
            expect(b.setup.map { !$0.utf8.contains(0) } ?? true, "a setup with NUL")
            expect(b.intervalMs >= 1, "an interval of 0")
            expect(b.process.map { !$0.isEmpty && $0.utf8.count <= 15 } ?? true, "a process name of the wrong length")
            let limits: [UInt64?] = [b.peakRSS, b.peakRSSExact, b.peakPSS, b.steadyUSS, b.peakAnon, b.steadyAnon, b.peakCgroup, b.growthPerMinute]
            expect(limits.contains { $0 != nil }, "a budget without a limit")
            expect(b.durationMs.map { b.warmupMs < $0 } ?? true, "a warm-up that does not end before the duration")
            expect(b.line >= 1 && b.line <= lines, "a budget at line \(b.line) of \(lines)")
            expect(b.keyLines.values.allSatisfy { $0 >= b.line && $0 <= lines }, "a key's line outside its budget's: \(b.keyLines) of \(lines)")
        }
    } catch {
        expect(error.line >= 1 && error.column >= 1 && error.line <= lines, "error at \(error.line):\(error.column) of \(lines) lines")
        let text = Array(error.describe(file: "b.toml").utf8)
        expect(text.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "the error is not one printable line", text)
    }
    return 0
}
