import Glibc
import ProcFS

/// The few file-system and environment questions the command line asks, over the C library:
/// what FileManager and ProcessInfo answered, without linking Foundation (docs/packaging.md).
/// Paths go to the system calls through `cPath` and come back through `pathString`, so that
/// a name that is not UTF-8 (ProcFS's CPath.swift) is kept byte for byte both ways.
enum SystemFiles {
    /// Whether something is at `path`, following symbolic links (a dangling link is nothing).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(cPath(path), &info) == 0
    }

    /// Whether `path` is a file this process may execute (not a directory).
    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        let pathC = cPath(path)
        return access(pathC, X_OK) == 0 && stat(pathC, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
    }

    /// The process's working directory ("" when it cannot be named).
    static func currentDirectory() -> String {
        guard let p = getcwd(nil, 0) else { return "" }
        defer { free(p) }
        return pathString(UnsafeRawBufferPointer(start: p, count: strlen(p)))
    }

    /// The process's environment by name (of a name set twice, the first, as getenv reads it).
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let p = entry.pointee {
            // The values the CLI reads are paths (HOME, XDG_*): each byte kept.
            let bytes = UnsafeRawBufferPointer(start: p, count: strlen(p))
            if let eq = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<eq], as: UTF8.self)
                if result[name] == nil { result[name] = pathString(UnsafeRawBufferPointer(rebasing: bytes[(eq + 1)...])) }
            }
            entry += 1
        }
        return result
    }

    /// The names in the directory at `path` but `.` and `..`; nil when it cannot be read.
    static func names(in path: String) -> [String]? {
        guard let stream = opendir(cPath(path)) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                pathString(UnsafeRawBufferPointer(rebasing: raw.prefix { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The bytes of the file at `path`, at most `limit` + 1 of them (a caller refuses more);
    /// nil when it cannot be opened or read. For files whose size stat does not tell (/proc).
    static func contents(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(cPath(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= limit {
            guard case .success(let n) = chunk.withUnsafeMutableBytes({ FileDescriptor(rawValue: fd).readSome(into: $0) }) else { return nil }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Removes `path` and, for a directory, everything under it; symbolic links are removed,
    /// never followed. Best effort, as `try? FileManager.removeItem` was.
    static func removeTree(_ path: String) {
        var info = stat()
        let pathC = cPath(path)
        guard lstat(pathC, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in names(in: path) ?? [] { removeTree(path + "/" + name) }
            rmdir(pathC)
        } else {
            unlink(pathC)
        }
    }

    /// `path` made absolute from the working directory, with its `.` and `..` components
    /// resolved by name (not by following links), as URL's standardizedFileURL did.
    static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
