import JSONCoding
import Glibc
import Bookmarks

/// `measure`'s output: the table people read and the JSON programs read.
public enum MeasureReport {
    /// The human table: the run, the tree's figures (peak, when, steady), growth, the
    /// cgroup's peak, then one row per process. Names are escaped for the terminal.
    public static func text(_ s: MeasureSummary, command: [String]) -> [String] {
        let r = s.recording
        var lines: [String] = []
        let end = r.stoppedBySignal.map { "stopped by signal \($0)" }
            ?? (r.stoppedAtDuration ? "stopped after --duration" : r.attachedEnded ? "it ended" : (r.commandExit?.description ?? "no status"))
        if let pid = r.attachedPid {
            let name = r.processes.first { $0.pid == pid }.map { " (" + TerminalText.escape($0.name) + ")" } ?? ""
            lines.append("attached to pid \(pid)\(name) (--pid: not started, stopped or reaped by measure)")
        } else {
            lines.append("command: \(TerminalText.escape(command.joined(separator: " ")))")
        }
        lines.append("\(end), wall \(DurationText.format(ms: r.wallMs)), tree CPU \(DurationText.format(ms: r.treeCPUMs)), "
                     + "\(s.processCount) process\(s.processCount == 1 ? "" : "es"), \(s.samples) samples every \(r.intervalMs) ms")
        if let g = r.governed { lines.append(g.text) }
        lines.append("")
        let steadyTitle = "steady (mean after \(DurationText.format(ms: s.warmupMs)))"
        lines.append(pad("tree", 12) + pad("peak", 12) + pad("at", 10) + pad(steadyTitle, 30) + "most at the peak")
        for figure in MemoryFigure.allCases {
            guard let peak = s.treePeaks[figure] else { continue }
            let steady = s.steady?[figure].map { SizeText.format($0 * 1024) } ?? "n/a"
            let holder = peak.holderPid.map { "\(TerminalText.escape(peak.holderName)) (\($0)) \(SizeText.format(peak.holderKiB * 1024))" } ?? ""
            lines.append(pad(figure == .rss ? "RSS (sum)" : figure.label, 12) + pad(SizeText.format(peak.kib * 1024), 12)
                         + pad(DurationText.format(ms: peak.atMs), 10) + pad(steady, 30) + holder)
        }
        if s.peakRSSSource != "samples" {
            lines.append("peak RSS \(SizeText.format(s.peakRSSKiB * 1024)) by \(s.peakRSSSource) (higher than any sample)")
        }
        if let exact = s.exactPeakRSSKiB, let holder = s.exactPeakHolder {
            lines.append("exact peak RSS at a process's end (wait4): \(SizeText.format(exact * 1024)), \(TerminalText.escape(holder.name)) (\(holder.pid))")
        }
        if r.unseenProcesses > 0 {
            let largest = r.largestUnseen.map { "; the largest: \(TerminalText.escape($0.name)) (\($0.pid)) \(SizeText.format($0.maxRSSKiB * 1024)) at its end" } ?? ""
            lines.append("\(r.unseenProcesses) process\(r.unseenProcesses == 1 ? "" : "es") ended before any sample\(largest)")
        }
        if !r.commandFromHelper && r.attachedPid == nil {
            lines.append("the command was started without sysstats-spawn (not beside sysstats): its own wait4 peak counts sysstats's RSS and is not used")
        }
        let fitted = FigureQuality.fit(samples: s.steadySamples, spanMs: s.steadySpanMs)
        if let g = s.growth {
            lines.append("growth of PSS after the warm-up: \(SizeText.formatSigned(g.kibPerMinute * 1024))/min, R² \(fixed(g.rSquared, decimals: 2)), "
                         + (g.significant ? "significant" : "not significant") + " (\(fitted.text))")
        } else {
            lines.append("growth of PSS after the warm-up: n/a (\(fitted.fullText))")
        }
        switch r.cgroup {
        case .measured(let bytes, let source):
            lines.append("cgroup peak: \(SizeText.format(bytes)) (\(source), exact; counts page cache and kernel memory too)")
            if let anon = r.cgroupPeakAnon, let file = r.cgroupFileAtEnd {
                lines.append("cgroup memory.stat: anonymous at most \(SizeText.format(anon)) (sampled), page cache left charged \(SizeText.format(file))")
            }
        case .unavailable(let reason): lines.append("cgroup peak: n/a (\(TerminalText.escape(reason)))")
        }
        lines.append("sources: peaks and steady state from smaps_rollup every \(r.intervalMs) ms; a process's peak RSS is the largest of its samples, "
                     + "VmHWM (/proc/PID/status, last read) and wait4's at its end (exact; \"from\" says which); CPU from getrusage")
        lines.append("")
        lines += figureLines(s)
        lines.append("")
        lines.append(pad("pid", 8) + pad("name", 17) + pad("peak RSS", 11) + pad("from", 9) + pad("peak PSS", 11)
                     + pad("peak USS", 11) + pad("swap", 10) + pad("thr", 5) + pad("CPU", 10) + pad("seen", 20) + "end")
        for p in s.processes {
            let seen = DurationText.format(ms: p.firstMs) + "-" + DurationText.format(ms: p.lastMs)
            lines.append(pad("\(p.pid)", 8) + pad(TerminalText.escape(p.name), 17)
                         + pad(SizeText.format(p.peakRSSKiB * 1024), 11) + pad(p.peakRSSSource.rawValue, 9)
                         + pad(SizeText.format(p.peaks[.pss]!.kib * 1024), 11) + pad(SizeText.format(p.peaks[.uss]!.kib * 1024), 11)
                         + pad(SizeText.format(p.peaks[.swap]!.kib * 1024), 10) + pad("\(p.threadsPeak)", 5)
                         + pad(DurationText.format(ms: p.cpuMs), 10) + pad(seen, 20) + (p.exit?.description ?? (p.execd ? "exec" : "not reaped by measure")))
        }
        let broken = s.processes.filter { !$0.peakMappings.isEmpty }.sorted { $0.peakRSSKiB > $1.peakRSSKiB }
        if !broken.isEmpty {
            lines.append("")
            lines.append("where the memory was at each process's highest RSS read with /proc/PID/smaps (RSS by mapping):")
            for p in broken.prefix(maximumBreakdowns) {
                lines.append("\(TerminalText.escape(p.name)) (\(p.pid)) at \(SizeText.format(bytes(p.peakMappingsRSSKiB))), "
                             + "\(DurationText.format(ms: p.peakMappingsAtMs)): " + mappingsText(p.peakMappings, .rss, count: 6, withOther: true))
            }
        }
        return lines
    }

    /// The processes whose breakdown the table shows, largest peak RSS first.
    static let maximumBreakdowns = 5

    /// "[heap] 12.1 MiB, anon 5.20 MiB, libpython3.11.so 2.90 MiB": the `count` largest
    /// kinds of mapping by `figure`, names escaped, and the rest as "other" when asked.
    public static func mappingsText(_ kinds: [MappingFigures], _ figure: MemoryFigure, count: Int, withOther: Bool = false) -> String {
        let named = kinds.filter { $0.name != Array("other".utf8) }
        var parts = SmapsMappings.largest(named, count, by: { $0.kib(figure) }).filter { $0.kib(figure) > 0 }
        if !withOther { parts.removeAll { $0.name == Array("other".utf8) } }
        else if let other = kinds.first(where: { $0.name == Array("other".utf8) }), let last = parts.indices.last,
                parts[last].name == Array("other".utf8) {
            parts[last].rssKiB &+= other.rssKiB; parts[last].pssKiB &+= other.pssKiB
            parts[last].ussKiB &+= other.ussKiB; parts[last].anonKiB &+= other.anonKiB
        }
        return parts.map { "\(TerminalText.escape($0.name)) \(SizeText.format(bytes($0.kib(figure))))" }.joined(separator: ", ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text + " " : text + String(repeating: " ", count: width - count)
    }

    // MARK: - JSON

    public struct JSON: Codable, Equatable {
        public var command: [String]
        public var exitStatus: Int32?
        public var signal: Int32?
        public var stoppedAtDuration: Bool
        public var wallMs: UInt64
        public var treeCpuMs: UInt64
        public var measurerCpuMs: UInt64
        public var intervalMs: UInt64
        /// Samples that waited to hold measure's CPU to its share, and the longest gap (``GovernedSampling``); nil: none.
        public var deferredSamples: Int?
        public var longestSampleGapMs: UInt64?
        public var warmupMs: UInt64
        public var samples: Int
        public var processCount: Int
        /// Bytes; "peak_rss" is the tree's (see `peakRSSSource`).
        public var peakRss: UInt64
        public var peakRssSource: String
        /// The largest wait4 peak at a process's end, and whose (``MeasureSummary/exactPeakRSSKiB``).
        public var exactPeakRss: UInt64?
        public var exactPeakPid: Int32?
        public var exactPeakName: String?
        /// Processes reaped before any sample saw them.
        public var unseenProcesses: Int
        /// Whether the command was forked from sysstats-spawn (its wait4 peak is its own).
        public var commandFromSpawnHelper: Bool
        /// The running process followed with `--pid`.
        public var attachedPid: Int32?
        public var tree: [String: Figure]
        public var growth: GrowthJSON?
        public var cgroupPeak: UInt64?
        public var cgroupSource: String?
        public var cgroupUnavailable: String?
        /// memory.stat's anonymous memory at its largest sample, and the page cache charged at the end.
        public var cgroupPeakAnon: UInt64?
        public var cgroupFileAtEnd: UInt64?
        public var processes: [ProcessJSON]
        public var timeline: TimelineJSON
        /// Each budget key's figure and how it was obtained (``BudgetFigureJSON``).
        public var budgetFigures: [String: BudgetFigureJSON]
    }

    public struct Figure: Codable, Equatable {
        public var peak: UInt64
        public var peakAtMs: UInt64
        public var steady: UInt64?
        public var peakHolderPid: Int32?
        public var peakHolderName: String?
        public var peakHolderBytes: UInt64?
    }

    public struct GrowthJSON: Codable, Equatable {
        public var bytesPerMinute: Double
        public var rSquared: Double
        public var significant: Bool
        public var samples: Int
    }

    public struct ProcessJSON: Codable, Equatable {
        public var pid: Int32
        public var parentPid: Int32
        public var name: String
        /// The largest of the sampled peak, VmHWM and wait4's; `peak_rss_source` says which.
        public var peakRss: UInt64
        /// "samples", "VmHWM" or "wait4" (exact: the kernel's figure at the process's end).
        public var peakRssSource: String
        public var sampledPeakRss: UInt64
        public var peakPss: UInt64
        public var peakUss: UInt64
        public var peakSwap: UInt64
        public var peakAnon: UInt64
        public var peakPssAtMs: UInt64
        /// VmHWM's last reading: the kernel's peak RSS since exec.
        public var highWaterRss: UInt64?
        /// wait4's ru_maxrss (what GNU time reports), for processes measure reaped (not for a
        /// command started without sysstats-spawn: that counts sysstats's own RSS).
        public var wait4MaxRss: UInt64?
        /// Whether wait4's figure is its program's own: false when it reaped children that
        /// ran, or exec'd over another image (``RecordedProcess/exactIsOwn``).
        public var wait4IsOwn: Bool?
        /// True when it ended by exec'ing another program (the next entry with its pid).
        public var execd: Bool?
        public var steadyPss: UInt64?
        public var steadyUss: UInt64?
        public var cpuMs: UInt64
        public var firstSeenMs: UInt64
        public var lastSeenMs: UInt64
        public var threads: UInt64
        public var exitStatus: Int32?
        public var signal: Int32?
        /// Its mappings by kind at its highest RSS read with smaps, and when (``MappingJSON``).
        public var peakMappings: [MappingJSON]?
        public var peakMappingsAtMs: UInt64?
        /// Why the mappings were not read at a high it reached, in words; nil when they were.
        public var peakMappingsMissed: String?
    }

    /// One kind of mapping (``MappingFigures``), bytes.
    public struct MappingJSON: Codable, Equatable {
        public var name: String
        public var rss: UInt64
        public var pss: UInt64
        public var uss: UInt64
        public var anon: UInt64
        public var mappings: UInt64

        init(_ m: MappingFigures) {
            name = String(decoding: m.name, as: UTF8.self)
            rss = bytes(m.rssKiB)
            pss = bytes(m.pssKiB)
            uss = bytes(m.ussKiB)
            anon = bytes(m.anonKiB)
            mappings = m.mappings
        }
    }

    /// The tree's totals per sample, bytes.
    public struct TimelineJSON: Codable, Equatable {
        public var ms: [UInt64]
        public var rss: [UInt64]
        public var pss: [UInt64]
        public var uss: [UInt64]
        public var swap: [UInt64]
        public var anon: [UInt64]
    }

    public static func json(_ s: MeasureSummary, command: [String]) -> JSON {
        let r = s.recording
        var tree: [String: Figure] = [:]
        for figure in MemoryFigure.allCases {
            guard let p = s.treePeaks[figure] else { continue }
            tree[figure.rawValue] = Figure(peak: p.kib * 1024, peakAtMs: p.atMs, steady: s.steady?[figure].map { $0 * 1024 },
                                           peakHolderPid: p.holderPid, peakHolderName: p.holderPid == nil ? nil : String(decoding: p.holderName, as: UTF8.self),
                                           peakHolderBytes: p.holderPid == nil ? nil : p.holderKiB * 1024)
        }
        let totals = MeasureSummary.totals(r)
        let bytes = { (figure: MemoryFigure) in totals[figure]!.map(Self.bytes) }
        var cgroupPeak: UInt64?, cgroupSource: String?, cgroupUnavailable: String?
        switch r.cgroup {
        case .measured(let b, let source): cgroupPeak = b; cgroupSource = source
        case .unavailable(let reason): cgroupUnavailable = reason
        }
        return JSON(command: command, exitStatus: exitCode(r.commandExit), signal: signalNumber(r.commandExit),
                    stoppedAtDuration: r.stoppedAtDuration, wallMs: r.wallMs, treeCpuMs: r.treeCPUMs,
                    measurerCpuMs: r.measurerCPUMs, intervalMs: r.intervalMs,
                    deferredSamples: r.governed?.deferredSamples, longestSampleGapMs: r.governed?.longestGapMs,
                    warmupMs: s.warmupMs, samples: s.samples,
                    processCount: s.processCount, peakRss: s.peakRSSKiB * 1024, peakRssSource: s.peakRSSSource,
                    exactPeakRss: s.exactPeakRSSKiB.map { $0 * 1024 }, exactPeakPid: s.exactPeakHolder?.pid,
                    exactPeakName: s.exactPeakHolder.map { String(decoding: $0.name, as: UTF8.self) },
                    unseenProcesses: r.unseenProcesses, commandFromSpawnHelper: r.commandFromHelper,
                    attachedPid: r.attachedPid, tree: tree,
                    growth: s.growth.map { GrowthJSON(bytesPerMinute: $0.kibPerMinute * 1024, rSquared: $0.rSquared,
                                                      significant: $0.significant, samples: $0.samples) },
                    cgroupPeak: cgroupPeak, cgroupSource: cgroupSource, cgroupUnavailable: cgroupUnavailable,
                    cgroupPeakAnon: r.cgroupPeakAnon, cgroupFileAtEnd: r.cgroupFileAtEnd,
                    processes: s.processes.map { p in
                        ProcessJSON(pid: p.pid, parentPid: p.parentPid, name: String(decoding: p.name, as: UTF8.self),
                                    peakRss: p.peakRSSKiB * 1024, peakRssSource: p.peakRSSSource.rawValue,
                                    sampledPeakRss: p.peaks[.rss]!.kib * 1024, peakPss: p.peaks[.pss]!.kib * 1024,
                                    peakUss: p.peaks[.uss]!.kib * 1024, peakSwap: p.peaks[.swap]!.kib * 1024,
                                    peakAnon: p.peaks[.anon]!.kib * 1024,
                                    peakPssAtMs: p.peaks[.pss]!.atMs, highWaterRss: p.highWaterKiB.map { $0 * 1024 },
                                    wait4MaxRss: p.exactMaxRSSKiB.map { $0 * 1024 },
                                    wait4IsOwn: p.exactMaxRSSKiB == nil ? nil : p.exactIsOwn,
                                    execd: p.execd ? true : nil,
                                    steadyPss: p.steady.map { $0[.pss]! * 1024 }, steadyUss: p.steady.map { $0[.uss]! * 1024 },
                                    cpuMs: p.cpuMs, firstSeenMs: p.firstMs, lastSeenMs: p.lastMs, threads: p.threadsPeak,
                                    exitStatus: exitCode(p.exit), signal: signalNumber(p.exit),
                                    peakMappings: p.peakMappings.isEmpty ? nil : p.peakMappings.map(MappingJSON.init),
                                    peakMappingsAtMs: p.peakMappings.isEmpty ? nil : p.peakMappingsAtMs,
                                    peakMappingsMissed: p.mappingsMissed?.rawValue)
                    },
                    timeline: TimelineJSON(ms: r.sampleTimesMs, rss: bytes(.rss), pss: bytes(.pss), uss: bytes(.uss), swap: bytes(.swap), anon: bytes(.anon)),
                    budgetFigures: figuresJSON(s))
    }

    /// `value` as one line of JSON, snake_case keys sorted, terminal-safe (``JSONText``).
    public static func encode<T: Encodable>(_ value: T) -> String {
        let writer = JSONWriter(snakeCaseKeys: true, nonConformingFloats: (positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
        // Plain numbers, strings, arrays and objects: encoding cannot fail.
        return JSONText.terminalSafe(try! writer.encode(value))
    }

    /// KiB to bytes, saturating (a hostile smaps can say anything).
    static func bytes(_ kib: UInt64) -> UInt64 {
        let (product, overflow) = kib.multipliedReportingOverflow(by: 1024)
        return overflow ? .max : product
    }

    static func exitCode(_ e: ExitStatus?) -> Int32? { if case .exited(let c)? = e { return c } else { return nil } }
    static func signalNumber(_ e: ExitStatus?) -> Int32? { if case .signalled(let s)? = e { return s } else { return nil } }
}
