#if canImport(Glibc)
import Glibc
#endif
import ProcFS

extension SamplerOptions {
    /// This program's arguments after its name, as bytes, from `/proc/self/cmdline`
    /// (this process's own, never `--proc-root`'s); `CommandLine.arguments` when that
    /// cannot be read.
    ///
    /// Not `CommandLine.arguments` first: its one-time initialisation and getter were the
    /// only code run in two 64 KiB windows of the sampler's code pages (docs/performance-history.md).
    public static func processArguments() -> [[UInt8]] {
        let fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return CommandLine.arguments.dropFirst().map { Array($0.utf8) } }
        defer { close(fd) }
        var text = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = chunk.withUnsafeMutableBytes { FileDescriptor(rawValue: fd).readSome(into: $0) }
            guard case .success(let n) = result else { return CommandLine.arguments.dropFirst().map { Array($0.utf8) } }
            if n == 0 { break }
            text.append(contentsOf: chunk[0..<n])
        }
        // NUL-terminated arguments, the program's name first.
        var arguments = [[UInt8]]()
        var start = 0
        for (i, byte) in text.enumerated() where byte == 0 {
            arguments.append(Array(text[start..<i]))
            start = i + 1
        }
        if start < text.count { arguments.append(Array(text[start...])) }
        return Array(arguments.dropFirst())
    }
}
