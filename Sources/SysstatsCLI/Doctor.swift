#if canImport(Glibc)
import Glibc
#endif
import ProcFS
import SystemDirs
import SnapshotCodec
import Bookmarks
import BarCore
import TOML

/// One line of `sysstats doctor`.
public struct DoctorCheck: Equatable, Sendable {
    public enum Status: String, Sendable { case ok, warn, fail }
    public var status: Status
    public var name: String
    public var detail: String

    public init(_ status: Status, _ name: String, _ detail: String) {
        self.status = status; self.name = name; self.detail = detail
    }

    /// "ok    runtime dir: /run/user/1000/sysstats (mode 0700, yours)".
    public var line: String {
        let label = status.rawValue
        return label + String(repeating: " ", count: 6 - label.count) + name + ": " + detail
    }
}

/// `sysstats doctor`: is everything in place for the sampler and the bar?
public enum Doctor {
    /// All checks, in the order they are printed.
    /// `configPath` nil: the default place.
    public static func run(runtimeDirectory: String, procRoot: String, sysRoot: String, configPath: String? = nil,
                           nowMs: UInt64 = Clock.realtimeMs(), uid: UInt32 = geteuid()) -> [DoctorCheck] {
        let snapshotPath = RuntimePaths.snapshotPath(in: runtimeDirectory)
        var checks = [checkRuntimeDirectory(runtimeDirectory, uid: uid),
                      checkSnapshot(path: snapshotPath, nowMs: nowMs)]
        if case .success(let snapshot) = SnapshotFile.read(path: snapshotPath) {
            checks.append(checkMeasured(snapshot, sysRoot: sysRoot, blocks: barBlocks(configPath: configPath)))
        }
        checks.append(checkConfig(path: configPath))
        checks += checkKernel(procRoot: procRoot)
        checks.append(checkBatteries(sysRoot: sysRoot))
        checks.append(checkGPUs(procRoot: procRoot, sysRoot: sysRoot))
        return checks
    }

    /// The config file as the bar and the sampler load it (`sysstats config check`): a
    /// mistake fails, since the bar then shows the built-in blocks and an error block.
    public static func checkConfig(path: String?) -> DoctorCheck {
        let name = "config"
        let checked = ConfigCommands.check(path: path)
        if checked.status == 0 { return DoctorCheck(.ok, name, checked.stdout.first ?? "ok") }
        let first = checked.stderr.first ?? "cannot be read"
        let more = checked.stderr.count > 1 ? " (and \(checked.stderr.count - 1) more: sysstats config check)" : ""
        return DoctorCheck(.fail, name, first + more)
    }

    /// The blocks the user's bar shows: the config file's (at `configPath`, else the default
    /// place), else the built-in bar's; the built-in bar's too when the file cannot be read
    /// or has a mistake (the bar then shows those).
    public static func barBlocks(configPath: String?) -> [BarBlock] {
        guard let file = configPath ?? SamplerSettings.defaultPath(),
              case .success(let bytes) = readConfigFile(file, limit: 65_536),
              case .success(let config) = bytes.withUnsafeBytes({ BarConfig.parse($0) }),
              let blocks = config.blocks else { return BarBlock.defaults }
        return blocks
    }

    /// What the sampler could not measure that a block of the user's bar (`blocks`) shows as
    /// n/a: no temperature sensor, no network, no CPU frequency, a mount a block names that is
    /// not there. A block that hides where its hardware is absent (`hide_missing`, as the
    /// built-in bar's temp and net do) asks for no warning.
    public static func checkMeasured(_ snapshot: Snapshot, sysRoot: String, blocks: [BarBlock] = BarBlock.defaults) -> DoctorCheck {
        let name = "measured"
        var missing: [String] = []
        let parts: [(SnapshotSections, String)] = [
            (.temperature, "no temperature (no sensor under \(TerminalText.escape(joinPath(sysRoot, "class/hwmon"))) or class/thermal; temp shows n/a)"),
            (.network, "no network (/proc/net/dev; net and wifi show n/a)"),
            (.frequency, "no CPU frequency (no cpufreq under \(TerminalText.escape(joinPath(sysRoot, "devices/system/cpu"))); freq shows n/a)"),
        ]
        for (part, why) in parts where !snapshot.available.contains(part)
            && blocks.contains(where: { $0.kind.section.contains(part) && !$0.hideMissing }) {
            missing.append(why)
        }
        for d in snapshot.disks where d.isMissing { missing.append("disk \(TerminalText.escape(d.mount)): no such mount") }
        for d in snapshot.disks where d.isNotAnswering { missing.append("disk \(TerminalText.escape(d.mount)): not answering (its file system does not answer statfs)") }
        if missing.isEmpty { return DoctorCheck(.ok, name, "every part the blocks show") }
        return DoctorCheck(.warn, name, missing.joined(separator: "; "))
    }

    /// 0 unless a check failed.
    public static func exitStatus(_ checks: [DoctorCheck]) -> Int32 {
        checks.contains { $0.status == .fail } ? 1 : 0
    }

    /// The directory must be a real directory (not a symlink), ours, mode 0700:
    /// the sampler's own check (``RuntimeDirectory/check(_:uid:)``), run here.
    public static func checkRuntimeDirectory(_ path: String, uid: UInt32 = geteuid()) -> DoctorCheck {
        let name = "runtime dir"
        var info = stat()
        if lstat(cPath(path), &info) != 0 && errno == ENOENT {
            return DoctorCheck(.warn, name, "\(TerminalText.escape(path)) does not exist yet; sysstatsd creates it when it starts")
        }
        switch RuntimeDirectory.check(path, uid: uid) {
        case .failure(let error): return DoctorCheck(.fail, name, "\(TerminalText.escape(path)) \(error.reason)")
        case .success: return DoctorCheck(.ok, name, "\(TerminalText.escape(path)) (mode 0700, owned by you)")
        }
    }

    /// Present, decodes, fresh.
    public static func checkSnapshot(path: String, nowMs: UInt64) -> DoctorCheck {
        let name = "snapshot"
        switch SnapshotFile.read(path: path) {
        case .failure(let error):
            return DoctorCheck(.fail, name, error.message)
        case .success(let snapshot):
            let age = StalenessText.formatAge(ms: snapshot.ageMs(nowMs: nowMs))
            if snapshot.isStale(nowMs: nowMs) {
                return DoctorCheck(.warn, name, "sequence \(snapshot.sequence), stale: \(age) old "
                                   + "(interval \(StalenessText.formatInterval(ms: snapshot.intervalMs))); is sysstatsd running?")
            }
            return DoctorCheck(.ok, name, "sequence \(snapshot.sequence), \(age) old")
        }
    }

    /// The kernel release, pressure stall information, MemAvailable.
    public static func checkKernel(procRoot: String) -> [DoctorCheck] {
        let kernel = KernelRelease.read(procRoot: procRoot)
        var checks: [DoctorCheck] = []
        if let kernel {
            checks.append(DoctorCheck(.ok, "kernel", "\(kernel)"))
        } else {
            checks.append(DoctorCheck(.warn, "kernel", "cannot read a release from \(TerminalText.escape(joinPath(procRoot, "sys/kernel/osrelease")))"))
        }

        let pressure = joinPath(procRoot, "pressure/memory")
        if let kernel, !kernel.supportsPressureStall {
            checks.append(DoctorCheck(.warn, "memory pressure",
                                      "kernel \(kernel) is older than 4.20: no PSI, memory pressure is not shown"))
        } else if let problem = unreadable(pressure) {
            checks.append(DoctorCheck(.warn, "memory pressure",
                                      "\(TerminalText.escape(pressure)): \(problem); memory pressure is not shown (a kernel built without PSI, or booted with psi=0)"))
        } else {
            checks.append(DoctorCheck(.ok, "memory pressure", "\(TerminalText.escape(pressure)) readable"))
        }

        let meminfo = joinPath(procRoot, "meminfo")
        if let kernel, !kernel.supportsMemAvailable {
            checks.append(DoctorCheck(.warn, "MemAvailable",
                                      "kernel \(kernel) is older than 3.14: available memory is estimated from MemFree, Buffers, Cached, SReclaimable and Shmem"))
        } else if let problem = unreadable(meminfo) {
            checks.append(DoctorCheck(.fail, "MemAvailable", "\(TerminalText.escape(meminfo)): \(problem)"))
        } else {
            checks.append(DoctorCheck(.ok, "MemAvailable", "kernel ≥ 3.14, \(TerminalText.escape(meminfo)) readable"))
        }
        return checks
    }

    /// Batteries as the sampler counts them (peripherals and absent batteries not counted).
    public static func checkBatteries(sysRoot: String) -> DoctorCheck {
        let status = BatteryReader(sysRoot: sysRoot).update(ReadBuffer(capacity: 4096, maximumCapacity: 65536))
        let directory = joinPath(sysRoot, "class/power_supply")
        if status.count == 0 {
            return DoctorCheck(.ok, "batteries", "none under \(TerminalText.escape(directory)) — a desktop, that's fine")
        }
        let percent = (status.percentHundredths + 50) / 100
        return DoctorCheck(.ok, "batteries", "\(status.count) under \(TerminalText.escape(directory)), \(percent)%")
    }

    /// The GPUs the sampler finds: the sysfs cards it reads (amdgpu, i915, xe), and for an
    /// NVIDIA device whether its helper and NVML are there. A card without figures is a
    /// warning only where it leaves the gpu block `n/a` (an NVIDIA device without NVML).
    public static func checkGPUs(procRoot: String, sysRoot: String, helper: String? = programBesideThisOne("sysstatsd-gpu"),
                                 library: String = "libnvidia-ml.so.1") -> DoctorCheck {
        var found: [String] = []
        var readings: [GPUReading] = []
        GPUCards(sysRoot: sysRoot).update(ReadBuffer(capacity: 4096), monotonicNs: 1, into: &readings)
        for r in readings { found.append("card\(r.index) \(TerminalText.escape(Array(r.driver.description.utf8))) \(TerminalText.escape(Array(r.name.description.utf8)))") }
        let nvidia = GPUCards.nvidiaDeviceCount(procRoot: procRoot)
        guard nvidia > 0 else {
            if found.isEmpty { return DoctorCheck(.ok, "gpus", "none with figures (no amdgpu, i915 or xe card under \(TerminalText.escape(joinPath(sysRoot, "class/drm"))), no NVIDIA driver): the gpu block hides") }
            return DoctorCheck(.ok, "gpus", found.joined(separator: "; "))
        }
        let devices = "\(nvidia) NVIDIA device\(nvidia == 1 ? "" : "s")"
        guard let helper, access(cPath(helper), X_OK) == 0 else {
            return DoctorCheck(.warn, "gpus", (found + ["\(devices), but no sysstatsd-gpu beside sysstatsd to read them (reinstall)"]).joined(separator: "; "))
        }
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            return DoctorCheck(.warn, "gpus", (found + ["\(devices), but \(library) (NVML, from the NVIDIA driver) cannot be loaded: gpu shows n/a for them"]).joined(separator: "; "))
        }
        dlclose(handle)
        return DoctorCheck(.ok, "gpus", (found + ["\(devices) through NVML (\(library))"]).joined(separator: "; "))
    }

    /// Why `path` cannot be read, or nil when it can. Reads a few bytes: a kernel
    /// booted with psi=0 may let /proc/pressure/memory be opened but not read.
    static func unreadable(_ path: String) -> String? {
        let fd = open(cPath(path), O_RDONLY | O_CLOEXEC)
        if fd < 0 { return Errno.current.description }
        defer { close(fd) }
        var byte: UInt8 = 0
        switch withUnsafeMutableBytes(of: &byte, { FileDescriptor(rawValue: fd).readSome(into: $0) }) {
        case .failure(let e): return e.description
        case .success(0): return "empty"
        case .success: return nil
        }
    }
}
