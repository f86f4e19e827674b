/// The figures of a ``Recording``: peaks and when, the steady state after the warm-up, the
/// growth over it, per process and for the tree. Pure: tests build recordings by hand.
public struct MeasureSummary: Sendable {
    /// A figure's highest sample: KiB, when, and the process holding the most of it then.
    public struct Peak: Equatable, Sendable {
        public var kib: UInt64
        public var atMs: UInt64
        public var holderPid: Int32?
        public var holderName: [UInt8]
        public var holderKiB: UInt64
    }

    /// The steady part's growth of the tree's PSS.
    public struct Growth: Equatable, Sendable {
        public var kibPerMinute: Double
        public var rSquared: Double
        public var significant: Bool
        public var samples: Int
    }

    /// Where a process's peak RSS came from, the largest of the three.
    public enum PeakRSSSource: String, Sendable {
        /// The highest sampled RSS (smaps_rollup).
        case samples
        /// The kernel's high-water mark (VmHWM), last read while it ran.
        case highWater = "VmHWM"
        /// The kernel's figure at its end (wait4's ru_maxrss, as GNU time): exact.
        case exit = "wait4"
    }

    public struct ProcessSummary: Sendable {
        public var pid: Int32
        public var parentPid: Int32
        public var name: [UInt8]
        public var peaks: [MemoryFigure: (kib: UInt64, atMs: UInt64)]
        /// wait4's ru_maxrss, when `measure` reaped it (nil too for a command started without
        /// the spawn helper: that figure counts `measure`'s own RSS).
        public var exactMaxRSSKiB: UInt64?
        /// Whether that is its own, not possibly a child's it reaped (``RecordedProcess/exactIsOwn``).
        public var exactIsOwn: Bool
        public var highWaterKiB: UInt64?
        /// The largest of the sampled peak, VmHWM and the exact figure, and which it was.
        public var peakRSSKiB: UInt64
        public var peakRSSSource: PeakRSSSource
        /// The mean of each figure over its samples after the warm-up; nil without any.
        public var steady: [MemoryFigure: UInt64]?
        public var cpuMs: UInt64
        public var firstMs: UInt64
        public var lastMs: UInt64
        public var threadsPeak: UInt64
        public var exit: ExitStatus?
        /// Whether it ended by exec'ing another program (the next row with its pid).
        public var execd = false
        /// Its mappings by kind at its highest RSS read with them (``RecordedProcess/peakMappings``).
        public var peakMappings: [MappingFigures] = []
        public var peakMappingsRSSKiB: UInt64 = 0
        public var peakMappingsAtMs: UInt64 = 0
        /// Why its mappings were not read at a high (``RecordedProcess/mappingsMissed``).
        public var mappingsMissed: MappingsMissed?
    }

    public var samples: Int
    public var warmupMs: UInt64
    public var treePeaks: [MemoryFigure: Peak] = [:]
    /// The mean of each tree figure over the samples after the warm-up; nil without any.
    public var steady: [MemoryFigure: UInt64]?
    public var steadySamples = 0
    /// The samples that saw a process of the recording (a budget's `process` filter leaves
    /// the others empty), and those of them after the warm-up: what a sampled figure rests
    /// on (``FigureQuality``).
    public var samplesWithTree = 0
    public var steadySamplesWithTree = 0
    /// From the first sample after the warm-up to the last, ms: the span growth is fitted over.
    public var steadySpanMs: UInt64 = 0
    /// Nil without ``FigureQuality/minimumFitSamples`` samples over
    /// ``FigureQuality/minimumFitSpanMs`` after the warm-up.
    public var growth: Growth?
    public var processes: [ProcessSummary] = []
    /// The tree's peak RSS: the sampled sum's peak, or a single process's kernel peak
    /// (VmHWM, or wait4's at its end) where that is higher (a spike between two samples, a
    /// process shorter than an interval).
    public var peakRSSKiB: UInt64 = 0
    public var peakRSSSource = "samples"
    /// The largest exact peak RSS, wait4's at a process's end, of the processes `measure`
    /// reaped (``Recording/largestUnseen`` included); nil when it reaped none it can trust.
    public var exactPeakRSSKiB: UInt64?
    /// The process that had it.
    public var exactPeakHolder: (pid: Int32, name: [UInt8])?
    public var recording: Recording

    /// The least change over the steady part that counts as growth: a few pages of jitter
    /// (allocator arenas, stacks) is not a leak.
    public static let growthNoiseFloorKiB = 256.0

    public init(_ recording: Recording, warmupMs: UInt64, ticksPerSecond: UInt64 = 100) {
        self.recording = recording
        self.warmupMs = warmupMs
        samples = recording.sampleTimesMs.count
        let totals = Self.totals(recording)
        for figure in MemoryFigure.allCases {
            let series = totals[figure]!
            guard let top = series.indices.max(by: { series[$0] < series[$1] }) else { continue }
            var holder: (Int32, [UInt8], UInt64)?
            for p in recording.processes where top >= p.firstSample && top <= p.lastSample {
                let v = p.values[top - p.firstSample][figure]
                if holder == nil || v > holder!.2 { holder = (p.pid, p.name, v) }
            }
            treePeaks[figure] = Peak(kib: series[top], atMs: recording.sampleTimesMs[top], holderPid: holder?.0,
                                     holderName: holder?.1 ?? [], holderKiB: holder?.2 ?? 0)
        }
        let steadyIndices = recording.sampleTimesMs.indices.filter { recording.sampleTimesMs[$0] >= warmupMs }
        steadySamples = steadyIndices.count
        let seen = Self.samplesSeeing(recording)
        samplesWithTree = seen.reduce(0) { $0 + ($1 ? 1 : 0) }
        steadySamplesWithTree = steadyIndices.reduce(0) { $0 + (seen[$1] ? 1 : 0) }
        if let first = steadyIndices.first, let last = steadyIndices.last {
            let (from, to) = (recording.sampleTimesMs[first], recording.sampleTimesMs[last])
            steadySpanMs = to > from ? to - from : 0
        }
        if !steadyIndices.isEmpty {
            var means: [MemoryFigure: UInt64] = [:]
            for figure in MemoryFigure.allCases {
                let series = totals[figure]!
                let sum = steadyIndices.reduce(0.0) { $0 + Double(series[$1]) }
                means[figure] = UInt64(sum / Double(steadyIndices.count))
            }
            steady = means
            let xs = steadyIndices.map { Double(recording.sampleTimesMs[$0]) / 60_000 }
            let ys = steadyIndices.map { Double(totals[.pss]![$0]) }
            // A slope per minute from half a second of samples is noise extrapolated (+2.42 GiB/min
            // at R² 0.17): none is given from less.
            if steadyIndices.count >= FigureQuality.minimumFitSamples && steadySpanMs >= FigureQuality.minimumFitSpanMs,
               let fit = LinearFit.fit(xs, ys) {
                let span = (xs.last ?? 0) - (xs.first ?? 0)
                let floor = max(Self.growthNoiseFloorKiB, Double(means[.pss]!) / 100)
                growth = Growth(kibPerMinute: fit.slope, rSquared: fit.rSquared,
                                significant: fit.isSignificant(spanX: span, noiseFloor: floor), samples: fit.count)
            }
        }
        var highWater: UInt64 = 0
        for p in recording.processes {
            // One admitted but ended before its first figures has no row, but its end counts.
            if let exact = Self.trustedExactKiB(p, recording), exact > exactPeakRSSKiB ?? 0 || exactPeakRSSKiB == nil {
                exactPeakRSSKiB = exact; exactPeakHolder = (p.pid, p.name)
            }
            guard !p.values.isEmpty && p.lastSample < recording.sampleTimesMs.count else { continue }
            highWater = max(highWater, p.highWaterKiB ?? 0)
            processes.append(Self.summary(of: p, recording, warmupMs: warmupMs, ticksPerSecond: ticksPerSecond))
        }
        if let unseen = recording.largestUnseen, unseen.isOwn || !recording.ownExactFiguresOnly,
           unseen.maxRSSKiB > exactPeakRSSKiB ?? 0 || exactPeakRSSKiB == nil {
            exactPeakRSSKiB = unseen.maxRSSKiB; exactPeakHolder = (unseen.pid, unseen.name)
        }
        peakRSSKiB = treePeaks[.rss]?.kib ?? 0
        if highWater > peakRSSKiB { peakRSSKiB = highWater; peakRSSSource = Self.peakFromHighWater }
        if let exact = exactPeakRSSKiB, exact > peakRSSKiB { peakRSSKiB = exact; peakRSSSource = Self.peakFromWait4 }
    }

    /// wait4's figure for `p`, unless it is the command started without the spawn helper
    /// (then it counts `measure`'s own RSS).
    /// With ``Recording/ownExactFiguresOnly`` only a figure that is the process's own.
    static func trustedExactKiB(_ p: RecordedProcess, _ recording: Recording) -> UInt64? {
        if p.pid == recording.commandPid && !recording.commandFromHelper { return nil }
        if recording.ownExactFiguresOnly && !p.exactIsOwn { return nil }
        return p.exactMaxRSSKiB
    }

    private static func summary(of p: RecordedProcess, _ recording: Recording, warmupMs: UInt64,
                                ticksPerSecond: UInt64) -> ProcessSummary {
        var peaks: [MemoryFigure: (kib: UInt64, atMs: UInt64)] = [:]
        for figure in MemoryFigure.allCases {
            var best: (kib: UInt64, atMs: UInt64) = (0, 0)
            for (offset, v) in p.values.enumerated() where v[figure] > best.kib || offset == 0 {
                best = (v[figure], recording.sampleTimesMs[p.firstSample + offset])
            }
            peaks[figure] = best
        }
        var processSteady: [MemoryFigure: UInt64]?
        let after = p.values.indices.filter { recording.sampleTimesMs[p.firstSample + $0] >= warmupMs }
        if !after.isEmpty {
            var means: [MemoryFigure: UInt64] = [:]
            for figure in MemoryFigure.allCases {
                means[figure] = UInt64(after.reduce(0.0) { $0 + Double(p.values[$1][figure]) } / Double(after.count))
            }
            processSteady = means
        }
        // Attached (--pid), a process's CPU time counts from when it was first seen.
        let ticks = recording.attachedPid == nil ? p.cpuTicks : p.cpuTicks &- min(p.firstCPUTicks, p.cpuTicks)
        let cpu = p.exactCPUMs ?? ticks.multipliedReportingOverflow(by: 1000).partialValue / max(ticksPerSecond, 1)
        let trusted = trustedExactKiB(p, recording)
        var peak = (kib: peaks[.rss]!.kib, source: PeakRSSSource.samples)
        if let h = p.highWaterKiB, h > peak.kib { peak = (h, .highWater) }
        // A figure that may be a reaped child's is not this process's peak.
        if let e = trusted, p.exactIsOwn, e >= peak.kib { peak = (e, .exit) }
        return ProcessSummary(pid: p.pid, parentPid: p.parentPid, name: p.name, peaks: peaks,
                              exactMaxRSSKiB: trusted, exactIsOwn: p.exactIsOwn, highWaterKiB: p.highWaterKiB,
                              peakRSSKiB: peak.kib, peakRSSSource: peak.source,
                              steady: processSteady, cpuMs: cpu,
                              firstMs: recording.sampleTimesMs[p.firstSample],
                              lastMs: recording.sampleTimesMs[p.lastSample],
                              threadsPeak: p.threadsPeak, exit: p.exit, execd: p.execd, peakMappings: p.peakMappings,
                              peakMappingsRSSKiB: p.peakMappingsRSSKiB, peakMappingsAtMs: p.peakMappingsAtMs,
                              mappingsMissed: p.mappingsMissed)
    }

    /// For each sample, whether it saw a process of the recording.
    static func samplesSeeing(_ recording: Recording) -> [Bool] {
        var seen = [Bool](repeating: false, count: recording.sampleTimesMs.count)
        for p in recording.processes where !p.values.isEmpty && p.firstSample >= 0 && p.firstSample < seen.count {
            for index in p.firstSample...min(p.lastSample, seen.count - 1) { seen[index] = true }
        }
        return seen
    }

    /// The number of processes seen or reaped.
    public var processCount: Int { recording.processes.count + recording.unseenProcesses }

    /// Each figure's tree total per sample, KiB (saturating).
    static func totals(_ recording: Recording) -> [MemoryFigure: [UInt64]] {
        var totals: [MemoryFigure: [UInt64]] = [:]
        for figure in MemoryFigure.allCases {
            var series = [UInt64](repeating: 0, count: recording.sampleTimesMs.count)
            for p in recording.processes {
                for (offset, v) in p.values.enumerated() where p.firstSample + offset < series.count {
                    let (sum, overflow) = series[p.firstSample + offset].addingReportingOverflow(v[figure])
                    series[p.firstSample + offset] = overflow ? .max : sum
                }
            }
            totals[figure] = series
        }
        return totals
    }
}
