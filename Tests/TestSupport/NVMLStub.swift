import Foundation

/// The tests' stand-in for NVIDIA's libnvidia-ml.so.1 (Tests/Fixtures/nvml-stub/nvml_stub.c),
/// built once per test process with cc into a folder of its own, which is put first on
/// LD_LIBRARY_PATH: the NVIDIA helper (`sysstatsd-gpu`) a test starts loads it.
public enum NVMLStub {
    nonisolated(unsafe) private static var built: TemporaryDirectory?

    /// The folder holding the stub, or nil when cc could not build it (install/deps.sh installs gcc).
    @discardableResult
    public static func install() -> String? {
        if let built { return built.path }
        guard let directory = try? TemporaryDirectory("nvml") else { return nil }
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        cc.arguments = ["-shared", "-fPIC", "-I", Fixtures.packageRoot.appendingPathComponent("Sources/CGPUHelper").path,
                        "-o", directory.file("libnvidia-ml.so.1"), Fixtures.path("nvml-stub/nvml_stub.c")]
        guard (try? cc.run()) != nil else { return nil }
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { return nil }
        built = directory
        setenv("LD_LIBRARY_PATH", directory.path, 1)
        return directory.path
    }

    /// The built `sysstatsd-gpu` beside this test program (the package's build folder).
    public static var helper: String {
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: program).deletingLastPathComponent().appendingPathComponent("sysstatsd-gpu").path
    }
}
