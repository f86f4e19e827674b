import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real, small file system for "the disk is full" tests: a tmpfs of a given size mounted
/// on a temporary directory (needs root and permission to mount; the tests skip otherwise),
/// unmounted when the value goes away. ``fill()`` writes until the kernel says ENOSPC.
public final class SmallFileSystem {
    /// Why no file system could be mounted here (the test skips with it).
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    private let mountPoint: TemporaryDirectory
    public var path: String { mountPoint.path }
    private var fillers = 0

    public init(kilobytes: Int) throws {
        guard getuid() == 0 else { throw Unavailable(description: "mounting a tmpfs needs root (uid \(getuid()))") }
        mountPoint = try TemporaryDirectory("tmpfs")
        let result = SmallFileSystem.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", mountPoint.path])
        guard result.status == 0 else {
            throw Unavailable(description: "cannot mount a tmpfs here: \(result.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    deinit { _ = SmallFileSystem.run("/bin/umount", ["-l", mountPoint.path]) }

    /// `<mount point>/<name>`.
    public func file(_ name: String) -> String { mountPoint.file(name) }

    /// Fills the file system: writes a new file until ENOSPC, in 64 KiB then 512-byte pieces.
    public func fill() {
        fillers += 1
        let fd = open(file("fill-\(fillers)"), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        for size in [65_536, 512] {
            let zeros = [UInt8](repeating: 0, count: size)
            while zeros.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) > 0 {}
        }
    }

    /// Removes what ``fill()`` wrote.
    public func free() {
        while fillers > 0 {
            unlink(file("fill-\(fillers)"))
            fillers -= 1
        }
    }

    /// Bytes still available (statvfs), for assertions that the file system is full.
    public var availableBytes: UInt64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    private static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
