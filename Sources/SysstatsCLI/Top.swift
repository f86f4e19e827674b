#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import ProcFS

/// `sysstats top`: the processes now, with their friendly names, CPU, private memory and RSS.
public enum Top {
    /// What the list is ordered by.
    public enum Sort: String, CaseIterable, Sendable {
        case cpu, memory
    }

    /// One process as two scans saw it.
    public struct Row: Equatable, Sendable {
        public var pid: Int32
        public var comm: [UInt8]
        /// The executable's basename, else argv[0]'s; empty for kernel threads.
        public var executable: [UInt8]
        public var commandLine: [UInt8]
        /// ProcFS's best name (the longer exe/argv[0] name when comm was truncated).
        public var name: [UInt8]
        /// What a bookmark calls it; nil when no rule matches.
        public var friendlyName: [UInt8]?
        public var isKernelThread: Bool
        /// CPU over the interval, hundredths of a percent of one core.
        public var cpuPermyriad: UInt64
        /// Resident less shared pages (statm): what its exit frees, and what `--sort memory` orders by.
        public var privateKiB: UInt64
        /// Its whole resident set, file pages and shared memory included: what ps and top show.
        public var residentKiB: UInt64 = 0
        /// Its GPU use (`--gpu`); nil when it holds no GPU client or GPUs were not asked for.
        public var gpu: GPUUse? = nil

        /// The friendly name when there is one, else the best name.
        public var displayName: [UInt8] { friendlyName ?? name }
    }

    /// Scans `procRoot` twice, `intervalMs` apart (CPU from the tick deltas, as the sampler
    /// computes it), and names every process with `resolver`. `gpu`: each process's DRM
    /// clients are read with each scan, and NVIDIA's processes asked of `helper`.
    public static func sample(procRoot: String, intervalMs: Int, resolver: NameResolver, gpu: Bool = false,
                              helper: String? = nil, problems: inout [String]) -> [Row] {
        let buffer = ReadBuffer()
        let table = ProcessTable(procRoot: procRoot)
        let cpu = CPUStatReader(procRoot: procRoot)
        let before = cpu.update(buffer)
        table.scan(buffer)
        let clientsBefore = gpu ? drmClients(table.processes.map(\.pid), procRoot: procRoot, buffer: buffer) : [:]
        let start = monotonicNs()
        if intervalMs > 0 { usleep(UInt32(min(intervalMs, 60_000)) * 1000) }
        let after = cpu.update(buffer)
        table.scan(buffer)
        var use: [Int32: GPUUse] = [:]
        if gpu {
            let clientsAfter = drmClients(table.processes.map(\.pid), procRoot: procRoot, buffer: buffer)
            let nvidia = nvidiaProcesses(procRoot: procRoot, helper: helper, problems: &problems)
            use = gpuUse(before: clientsBefore, after: clientsAfter, elapsedNs: monotonicNs() &- start,
                         nvidia: nvidia)
        }
        // The sampler's rules for the CPU share's scale and for the executable name.
        let ticksPerCore = before.flatMap { b in after.map { $0.ticksPerCore(since: b) } } ?? 0
        return table.processes.map { p in
            let executable = p.withRuleExecutable { Array($0) }
            let friendly = resolver.resolve(comm: p.comm, executable: executable, commandLine: p.commandLine)
            return Row(pid: p.pid, comm: p.comm, executable: executable, commandLine: p.commandLine, name: p.name,
                       friendlyName: friendly.flatMap { $0.isEmpty ? nil : $0 }, isKernelThread: p.isKernelThread,
                       cpuPermyriad: p.cpuPermyriad(ticksPerCore: ticksPerCore),
                       privateKiB: p.privateKiB, residentKiB: p.residentKiB, gpu: use[p.pid])
        }
    }

    /// Largest first; ties by the other measure, then by pid.
    public static func sorted(_ rows: [Row], by sort: Sort) -> [Row] {
        rows.sorted { a, b in
            let (x, y) = sort == .cpu ? (a.cpuPermyriad, b.cpuPermyriad) : (a.privateKiB, b.privateKiB)
            if x != y { return x > y }
            let (u, v) = sort == .cpu ? (a.privateKiB, b.privateKiB) : (a.cpuPermyriad, b.cpuPermyriad)
            if u != v { return u > v }
            return a.pid < b.pid
        }
    }

    /// `sysstats top`: names from the database's rules (the built-in ones without a database).
    public static func run(procRoot: String, directory: String?, count: Int, sort: Sort, intervalMs: Int,
                           json: Bool, gpu: Bool = false, helper: String? = programBesideThisOne("sysstatsd-gpu")) -> CommandOutput {
        var rules = NameResolver(rules: BuiltinBookmarks.rules).rules
        if let directory {
            switch BookmarkCommands.readRules(directory: directory) {
            case .success(let found): rules = found
            case .failure(let error): return HistoryAccess.failure(error.message)
            }
        }
        var problems: [String] = []
        let sampled = sample(procRoot: procRoot, intervalMs: intervalMs, resolver: NameResolver(rules: rules), gpu: gpu,
                             helper: helper, problems: &problems)
        if gpu {
            let rows = Array(sortedByGPU(sampled).prefix(count))
            // A bare header said nothing: say that no process uses a GPU (stderr: stdout stays a table).
            if rows.isEmpty && !json {
                problems.append("sysstats top: no process uses a GPU (none holds a DRM client"
                                + (GPUCards.nvidiaDeviceCount(procRoot: procRoot) > 0 ? ", none is in NVML's list)" : "; no NVIDIA device)"))
            }
            return CommandOutput(stdout: json ? [gpuJSON(rows)] : gpuLines(rows), stderr: problems)
        }
        let rows = Array(sorted(sampled, by: sort).prefix(count))
        return CommandOutput(stdout: json ? [self.json(rows)] : lines(rows))
    }

    // PRIV, not MEM: a column named MEM beside ps's and top's RSS read as a wrong RSS
    // (Xvfb 23.1 where ps said 74); private memory is what an exit frees, so it stays first.
    static let header = Columns.right("PID", 8) + "  " + Columns.left("NAME", 28) + Columns.right("CPU %", 7)
        + Columns.right("PRIV MiB", 10) + Columns.right("RSS MiB", 10)

    /// The table; names escaped for the terminal like `sysstats exited` does.
    public static func lines(_ rows: [Row]) -> [String] {
        [header] + rows.map { r in
            Columns.right("\(r.pid)", 8) + "  " + Columns.left(TerminalText.escape(r.displayName), 28)
                + Columns.right(Columns.percentOneDecimal(r.cpuPermyriad), 7) + Columns.right(Columns.mib(r.privateKiB), 10)
                + Columns.right(Columns.mib(r.residentKiB), 10)
        }
    }

    /// `--json`: an array; `name` is what is shown, `process_name` the process's own name
    /// (both escaped), `bookmarked` whether a rule named it; `private_mib` and `rss_mib` the
    /// table's PRIV and RSS.
    public static func json(_ rows: [Row]) -> String {
        struct Item: Encodable {
            var pid: Int32, name: String, process_name: String, bookmarked: Bool, cpu_percent: Double, private_mib: Double
            var rss_mib: Double
        }
        let items = rows.map { r in
            Item(pid: r.pid, name: TerminalText.escape(r.displayName), process_name: TerminalText.escape(r.name),
                 bookmarked: r.friendlyName != nil, cpu_percent: Double(r.cpuPermyriad) / 100,
                 private_mib: ReportJSON.mib(r.privateKiB), rss_mib: ReportJSON.mib(r.residentKiB))
        }
        return JSONText.encode(items)
    }
}
