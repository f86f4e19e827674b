#if canImport(Glibc)
import Glibc
#endif
import Bookmarks
import HistoryStore
import ProcFS

// What the commands share: a one-line problem, shell quoting for a command line to paste,
// and reading a file the user names, checked.

/// A one-line reason for stderr.
public struct Problem: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Quoting for a shell command line a person will paste: every byte printed is one a
/// terminal shows as it is (TerminalText), and the shell gives the command the exact text.
enum ShellQuote {
    /// Plain text as is; else `'…'` with `'` written as `'\''`; text with characters a
    /// terminal would act on or hide (controls, C1, bidi and other invisible format
    /// characters: TerminalText.hides) as `$'…'` with those characters' bytes as `\xHH`
    /// (bash, zsh, ksh and POSIX.1-2024 shells read it; dash before 0.5.12 and fish do not).
    /// nil for invalid UTF-8, which no argument parsed as a String can carry back.
    static func quote(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty, !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else { return nil }
        if bytes.allSatisfy({ isPlain($0) }) { return String(decoding: bytes, as: UTF8.self) }
        var dollar = false
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x20 || bytes[i] == 0x7F { dollar = true; break }
            if bytes[i] >= 0x80, let (value, length) = TerminalText.scalar(bytes, at: i) {
                if TerminalText.hides(value) { dollar = true; break }
                i += length
            } else {
                i += 1
            }
        }
        guard dollar else {
            var quoted = "'"
            for c in String(decoding: bytes, as: UTF8.self) { quoted += c == "'" ? "'\\''" : String(c) }
            return quoted + "'"
        }
        var out: [UInt8] = Array("$'".utf8)
        i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                switch byte {
                case 0x27, 0x5C: out += [0x5C, byte]                  // \' and \\
                case 0x20..<0x7F: out.append(byte)
                default: out += hexEscape(byte)
                }
                i += 1
                continue
            }
            let (value, length) = TerminalText.scalar(bytes, at: i)!   // valid UTF-8: checked above
            if TerminalText.hides(value) {
                for k in 0..<length { out += hexEscape(bytes[i + k]) }
            } else {
                out += bytes[i..<(i + length)]
            }
            i += length
        }
        return String(decoding: out + [0x27], as: UTF8.self)
    }

    private static func hexEscape(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [0x5C, 0x78, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }

    private static func isPlain(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == 0x2D || b == 0x5F || b == 0x2E || b == 0x2F || b == 0x3A || b == 0x2B
    }
}

/// Reading and writing whole small files, bounded.
enum FileBytes {
    /// At most `limit` bytes of `path`, which must be a regular file (a FIFO, a device or
    /// a directory is refused at once, never waited on; a symlink to a file is followed:
    /// the user named it).
    static func read(_ path: String, limit: Int) -> Result<[UInt8], Problem> {
        let fd: FileDescriptor
        switch FileDescriptor.openRegular(path, followSymlinks: true) {
        case .success(let d): fd = d
        case .failure(.notRegular(let kind)): return .failure(Problem("\(TerminalText.escape(path)) is \(kind), not a regular file"))
        case .failure(let e): return .failure(Problem("cannot open \(TerminalText.escape(path)): \(e)"))
        }
        defer { fd.close() }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        reading: while count < limit {
            let result = bytes.withUnsafeMutableBytes { fd.readSome(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            switch result {
            case .failure(let e): return .failure(Problem("cannot read \(TerminalText.escape(path)): \(e.description)"))
            case .success(0): break reading
            case .success(let n): count += n
            }
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    /// The size `stat` gives, for messages.
    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(cPath(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        FileDescriptor(rawValue: fd).writeAll(bytes) == nil
    }

    /// Writes a temporary file beside `path` and renames it over `path`. The problem, or nil.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) -> String? {
        writeFileAtomically(bytes, to: path, mode: mode).map { TerminalText.escape($0.description) }
    }
}
