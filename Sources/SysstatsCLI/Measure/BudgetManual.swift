// sysstats-budget(5), the budgets file's manual page, written from the parser's own table
// (BudgetFile.keyTable) and limits, and the key table of docs/budgets.md from the same:
// BudgetManualTests compares both with the committed files (SYSSTATS_UPDATE_MANUAL=1
// writes them).

/// The budgets file's manual page and key table.
public enum BudgetManual {
    /// A budgets file with every key, for the page (and parsed by its test).
    public static let example = """
        [[budget]]
        name = "applet"
        command = "exec ./build/my-applet --demo"
        warmup = "1s"
        duration = "12s"
        interval = "20ms"
        peak_rss = "12 MiB"
        steady_uss = "8 MiB"
        steady_anon = "6 MiB"
        growth_per_minute = "256 KiB"

        [[budget]]
        name = "import 10k rows"
        setup = "python3 tests/make-rows.py \\"$SYSSTATS_BUDGET_TMP/rows.csv\\" 10000"
        command = "./build/importer \\"$SYSSTATS_BUDGET_TMP/rows.csv\\""
        process = "importer"
        max_overhead = "5%"
        peak_pss = "64 MiB"
        peak_rss_exact = "72 MiB"
        peak_cgroup = "80 MiB"
        peak_anon = "48 MiB"

        [[budget]]
        name = "server"
        setup = "./build/server --daemon --pidfile server.pid"
        pidfile = "server.pid"
        duration = "30s"
        peak_pss = "200 MiB"

        [[budget]]
        name = "this session's panel"
        pid = 4242
        duration = "10s"
        peak_rss = "40 MiB"

        """

    /// assets/man/sysstats-budget.5.
    public static func page() -> String {
        var out = """
            .TH SYSSTATS-BUDGET 5 "" "sysstats" "File Formats"
            .SH NAME
            sysstats-budget \\- the memory budgets file of sysstats budget
            .SH SYNOPSIS
            .B sysstats-budget.toml
            .SH DESCRIPTION
            \\fBsysstats budget check\\fR [\\fIFILE\\fR] runs each command of the budgets file (default
            \\fBsysstats-budget.toml\\fR) under \\fBsysstats measure\\fR and fails when one goes past a
            limit; \\fBsysstats budget record\\fR writes their figures as a baseline. The file is
            TOML: one \\fB[[budget]]\\fR table per command, at most \(BudgetFile.maximumBudgets). It is read
            as outside input: a regular file (not a symbolic link, not a FIFO), at most
            \(BudgetFile.maximumSize / 1024) KiB, strict TOML. A problem is one line,
            \\fIFILE\\fR:\\fILINE\\fR:\\fICOL\\fR: \\fIreason\\fR, with exit status 2.
            .SH KEYS
            Each \\fB[[budget]]\\fR takes these keys, and no other; it sets at least one limit
            (\(BudgetFile.keyTable.filter(\.isLimit).map(\.name).joined(separator: ", "))).

            """
        for key in BudgetFile.keyTable {
            out += ".TP\n.B \(key.name)\n\(key.takes.first == "i" ? "An" : "A") \(key.takes): \(escape(key.meaning)).\n"
        }
        out += """
            .SH SIZES AND DURATIONS
            A size is a string such as \\fB"2 MiB"\\fR or \\fB"300K"\\fR (K, M, G, T and KiB, MiB, GiB,
            TiB, in any case, are powers of 1024; kB, MB, GB, TB, written so, of 1000; another case
            of those, such as mb, is refused as ambiguous; B or no unit is bytes), or a whole
            number of bytes. A duration is a string with a unit:
            \\fB"500ms"\\fR, \\fB"1s"\\fR, \\fB"2m"\\fR (or min), \\fB"1h"\\fR.
            .SH ENVIRONMENT
            Each budget's setup and command run with \\fBSYSSTATS_BUDGET_TMP\\fR, a fresh temporary
            folder removed afterwards.
            .SH EXAMPLE
            .nf

            """
        for line in example.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            out += (line.isEmpty ? "" : escape(String(line))) + "\n"
        }
        out += """
            .fi
            .SH EXIT STATUS
            \\fBsysstats budget check\\fR exits 0 when every budget kept its limits, 1 when one did
            not (a \\fBFAIL\\fR line: a limit exceeded, its command failed, or a regression against
            \\fB\\-\\-baseline\\fR) or could not be measured (an \\fBERROR\\fR line, a JUnit error: its
            command or setup could not run, its \\fBprocess\\fR matched nothing, a limit's figure
            could not be had), 2 when the file cannot be used. A \\fBFAIL\\fR line names where each
            failed limit is set (\\fIFILE\\fR:\\fILINE\\fR); an \\fBERROR\\fR line says what to do.
            .SH SEE ALSO
            \\fBsysstats\\fR(1); budgets.md in /usr/share/doc/sysstats/docs/ (docs/budgets.md in the
            source), which says where each figure comes from, how exact it is, and how to use
            budgets in CI.

            """
        return out
    }

    /// docs/budgets.md's key table (its `budget keys` part).
    public static func keysTable() -> String {
        var out = "| key | takes | |\n|---|---|---|\n"
        for key in BudgetFile.keyTable {
            out += "| `\(key.name)` | \(key.takes) | \(key.meaning.replacingAll("|", with: "\\|")) |\n"
        }
        return out
    }

    /// Text for roff: a backslash as `\e`, a leading dot or quote made plain, `-` as `\-`.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(c)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
