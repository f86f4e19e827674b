#if canImport(Glibc)
import Glibc
#endif
import CMeasureSys
import Bookmarks
import ProcFS

/// `sysstats top --gpu`: the processes using a GPU, from their DRM clients' fdinfo (amdgpu,
/// i915, xe and every driver that publishes the keys of the kernel's drm-usage-stats.rst)
/// and, for NVIDIA, from NVML's list of processes through the sampler's helper.
extension Top {
    /// One process's use of the GPUs.
    public struct GPUUse: Equatable, Sendable {
        /// The busiest kind of engine's share of the interval (NVIDIA: NVML's newest sample of
        /// its share of the streaming multiprocessors), hundredths of a percent; nil where
        /// the driver gives no busy time.
        public var busyPermyriad: UInt64?
        /// Its GPU memory (device memory where the driver tells it apart), bytes; nil when unknown.
        public var memoryBytes: UInt64?
        /// The drivers of its clients (`amdgpu`, `i915`, `nvidia`).
        public var drivers: [String]
    }

    /// Each of `pids`' DRM clients, read now.
    static func drmClients(_ pids: [Int32], procRoot: String, buffer: ReadBuffer) -> [Int32: [DRMClientReading]] {
        var clients: [Int32: [DRMClientReading]] = [:]
        for pid in pids {
            let found = DRMClients.read(pid: pid, procRoot: procRoot, buffer: buffer)
            if !found.isEmpty { clients[pid] = found }
        }
        return clients
    }

    /// The processes' GPU use: their DRM clients between two readings `elapsedNs` apart, and
    /// NVIDIA's processes (memory, and busy where NVML sampled it).
    static func gpuUse(before: [Int32: [DRMClientReading]], after: [Int32: [DRMClientReading]], elapsedNs: UInt64,
                       nvidia: [NVMLProcess]) -> [Int32: GPUUse] {
        var use: [Int32: GPUUse] = [:]
        for (pid, clients) in after {
            var memory: UInt64 = 0
            var drivers: [String] = []
            for c in clients {
                memory = memory.addingReportingOverflow(c.memoryBytes).overflow ? .max : memory + c.memoryBytes
                let driver = TerminalText.escape(Array(c.driver.description.utf8))
                if !drivers.contains(driver) { drivers.append(driver) }
            }
            let busy = DRMClients.busyPermyriad(before: before[pid] ?? [], after: clients, elapsedNs: elapsedNs)
            use[pid] = GPUUse(busyPermyriad: busy, memoryBytes: memory, drivers: drivers)
        }
        for p in nvidia {
            var u = use[p.pid] ?? GPUUse(busyPermyriad: nil, memoryBytes: nil, drivers: [])
            if let bytes = p.vramBytes { u.memoryBytes = (u.memoryBytes ?? 0).addingReportingOverflow(bytes).partialValue }
            if let sm = p.smPercent { u.busyPermyriad = max(u.busyPermyriad ?? 0, min(sm, 100) * 100) }
            if !u.drivers.contains("nvidia") { u.drivers.append("nvidia") }
            use[p.pid] = u
        }
        return use
    }

    /// NVIDIA's processes from one frame of `helper` (`sysstatsd-gpu`), where `procRoot`'s
    /// `driver/nvidia/gpus` lists a device; none without one, or when the helper gives no
    /// frame within 3 s (its error line goes to `problems`).
    static func nvidiaProcesses(procRoot: String, helper: String?, problems: inout [String]) -> [NVMLProcess] {
        guard GPUCards.nvidiaDeviceCount(procRoot: procRoot) > 0 else { return [] }
        guard let helper, SystemFiles.isExecutableFile(helper) else {
            problems.append("sysstats top: NVIDIA processes not listed: no sysstatsd-gpu beside sysstats")
            return []
        }
        var fd: Int32 = -1
        let arguments = [helper, "500"]
        // The helper's path as its bytes (cPath): installed under a folder whose name is not UTF-8.
        var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { word in cPath(word).withUnsafeBufferPointer { strdup($0.baseAddress!) } }
        defer { cStrings.forEach { free($0) } }
        cStrings.append(nil)
        let pid = measure_spawn_output(cStrings, &fd)
        guard pid > 0 else { return [] }
        defer {
            close(fd)
            // Bounded: a helper stuck in the driver is left to init when this program ends.
            _ = ChildStop.stop(pid)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let output = NVMLHelperOutput()
        var readings: [GPUReading] = []
        let deadline = monotonicMs() &+ 3_000
        while monotonicMs() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 100)
            let open = output.fill(from: FileDescriptor(rawValue: fd))
            if output.takeFrames(into: &readings) { break }
            if !open { break }
        }
        if !output.error.isEmpty {
            problems.append("sysstats top: NVIDIA processes not listed: \(TerminalText.escape(output.error))")
        }
        return output.processes
    }

    /// The table of `--gpu`.
    static let gpuHeader = Columns.right("PID", 8) + "  " + Columns.left("NAME", 28) + Columns.right("GPU %", 7)
        + Columns.right("GPU MiB", 10) + Columns.right("CPU %", 7) + "  DRIVER"

    public static func gpuLines(_ rows: [Row]) -> [String] {
        [gpuHeader] + rows.map { r in
            let busy = r.gpu?.busyPermyriad.map(Columns.percentOneDecimal) ?? "-"
            let memory = r.gpu?.memoryBytes.map { Columns.mib($0 / 1024) } ?? "-"
            return Columns.right("\(r.pid)", 8) + "  " + Columns.left(TerminalText.escape(r.displayName), 28)
                + Columns.right(busy, 7) + Columns.right(memory, 10) + Columns.right(Columns.percentOneDecimal(r.cpuPermyriad), 7)
                + "  " + (r.gpu?.drivers.joined(separator: ",") ?? "")
        }
    }

    /// `--gpu --json`: the processes with their GPU figures (`null` where unknown).
    public static func gpuJSON(_ rows: [Row]) -> String {
        struct Item: Encodable {
            var pid: Int32, name: String, cpu_percent: Double, gpu_percent: Double?, gpu_memory_mib: Double?, drivers: [String]
            func encode(to encoder: Encoder) throws {
                enum Key: String, CodingKey { case pid, name, cpu_percent, gpu_percent, gpu_memory_mib, drivers }
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(pid, forKey: .pid)
                try c.encode(name, forKey: .name)
                try c.encode(cpu_percent, forKey: .cpu_percent)
                try c.encodeNullable(gpu_percent, forKey: .gpu_percent)
                try c.encodeNullable(gpu_memory_mib, forKey: .gpu_memory_mib)
                try c.encode(drivers, forKey: .drivers)
            }
        }
        let items = rows.map { r in
            Item(pid: r.pid, name: TerminalText.escape(r.displayName), cpu_percent: Double(r.cpuPermyriad) / 100,
                 gpu_percent: r.gpu?.busyPermyriad.map { Double($0) / 100 },
                 gpu_memory_mib: r.gpu?.memoryBytes.map { ReportJSON.mib($0 / 1024) }, drivers: r.gpu?.drivers ?? [])
        }
        return JSONText.encode(items)
    }

    /// GPU clients first by busy share, then by memory, then by pid.
    static func sortedByGPU(_ rows: [Row]) -> [Row] {
        rows.filter { $0.gpu != nil }.sorted { a, b in
            let (x, y) = (a.gpu?.busyPermyriad ?? 0, b.gpu?.busyPermyriad ?? 0)
            if x != y { return x > y }
            let (u, v) = (a.gpu?.memoryBytes ?? 0, b.gpu?.memoryBytes ?? 0)
            if u != v { return u > v }
            return a.pid < b.pid
        }
    }
}
