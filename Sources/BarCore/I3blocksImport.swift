// An i3blocks config file read as i3blocks 1.5 reads it (its ini.c and config.c: facts,
// not code), written out as the equivalent config.toml `[[block]]` tables of command blocks.
// `sysstats config import i3blocks FILE` prints that text; a config.toml block
// `block = "i3blocks"` loads it in place. The TOML is then parsed and checked as any
// config.toml is, so a section means exactly what the same keys mean in TOML.

import TOML

/// A line of an i3blocks file that i3blocks itself refuses.
public struct I3blocksError: Error {
    /// 1-based.
    public let line: Int
    public let reason: StaticString
}

public enum I3blocksImport {
    /// The longest file read (a real one is a few KiB).
    public static let maximumFileSize = 32_768

    /// The TOML text, and for each of its lines (1-based, index 0 unused) the line of the
    /// i3blocks file it came from (0: none), so a problem found in the TOML is reported
    /// at its place in the i3blocks file.
    public struct Converted {
        public var toml: [UInt8] = []
        public var sourceLines: [Int] = [0]
        /// How many sections became blocks.
        public var blocks = 0
    }

    /// Converts an i3blocks config. Each line is a comment (`#`), empty, a section header
    /// `[name]` (nothing after the `]`), or `key=value` (the key starting with a letter or
    /// `_`; neither side trimmed: i3blocks reads them as they are). Keys before the first
    /// section are every section's defaults (i3blocks' globals; `SCRIPT_DIR=…`).
    /// `folder`: the file's folder, where i3blocks runs the commands (it changes to it once):
    /// every command is run from there (`./battery`, `cat data.txt`).
    public static func convert(_ file: [UInt8], folder: [UInt8] = []) -> Result<Converted, I3blocksError> {
        var out = Converted()
        var globals: [(key: [UInt8], value: [UInt8], line: Int)] = []
        var section: [(key: [UInt8], value: [UInt8], line: Int)]?
        var sectionLine = 0
        var lineNumber = 0
        var start = 0
        while start < file.count {
            var end = start
            while end < file.count && file[end] != 0x0A { end += 1 }
            lineNumber += 1
            let line = Array(file[start..<end])
            start = end + 1
            if line.isEmpty || line[0] == UInt8(ascii: "#") { continue }
            if line[0] == UInt8(ascii: "[") {
                guard let close = line.firstIndex(of: UInt8(ascii: "]")) else {
                    return .failure(I3blocksError(line: lineNumber, reason: "a section header needs its closing ]"))
                }
                guard close == line.count - 1 else {
                    return .failure(I3blocksError(line: lineNumber, reason: "nothing may follow a section header's ]"))
                }
                if let done = section {
                    emit(sectionLine, done, folder: folder, into: &out)
                    // Checked as it grows: globals × sections can ask for gigabytes.
                    guard out.toml.count <= TOMLDocument.maximumSize else { return .failure(tooLarge(lineNumber)) }
                }
                sectionLine = lineNumber
                // i3blocks: the globals, then the header as `name` (a `name=` line may follow).
                var keys = globals
                set(bytes("name"), Array(line[1..<close]), lineNumber, in: &keys)
                section = keys
                continue
            }
            let first = line[0]
            guard (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z")) || first == UInt8(ascii: "_") else {
                return .failure(I3blocksError(line: lineNumber, reason: "not a comment, a [section] or a key=value line"))
            }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                return .failure(I3blocksError(line: lineNumber, reason: "a property is key=value"))
            }
            let key = Array(line[..<equals]), value = Array(line[(equals + 1)...])
            // TOML's own limits, which the written file must keep.
            guard key.count <= TOMLDocument.maximumKeyLength else {
                return .failure(I3blocksError(line: lineNumber, reason: "a key longer than 256 bytes"))
            }
            guard value.count <= TOMLDocument.maximumStringLength - 64 else {
                return .failure(I3blocksError(line: lineNumber, reason: "a value longer than 4,000 bytes"))
            }
            if section == nil {
                set(key, value, lineNumber, in: &globals)
            } else {
                set(key, value, lineNumber, in: &section!)
            }
        }
        if let done = section { emit(sectionLine, done, folder: folder, into: &out) }
        guard out.toml.count <= TOMLDocument.maximumSize else { return .failure(tooLarge(lineNumber)) }
        return .success(out)
    }

    private static func tooLarge(_ line: Int) -> I3blocksError {
        I3blocksError(line: line, reason: "too large: it makes more than 64 KiB of config.toml")
    }

    /// A later key replaces an earlier one of the same name (a section's over a global).
    private static func set(_ key: [UInt8], _ value: [UInt8], _ line: Int,
                            in list: inout [(key: [UInt8], value: [UInt8], line: Int)]) {
        for i in 0..<list.count where list[i].key == key {
            list[i] = (key, value, line)
            return
        }
        list.append((key, value, line))
    }

    private static func emit(_ headerLine: Int, _ keys: [(key: [UInt8], value: [UInt8], line: Int)],
                             folder: [UInt8], into out: inout Converted) {
        appendLine(bytes("[[block]]"), headerLine, &out)
        appendLine(bytes("block = \"command\""), headerLine, &out)
        for entry in keys {
            var text: [UInt8] = []
            appendKey(entry.key, to: &text)
            text.append(contentsOf: bytes(" = "))
            if entry.key == bytes("command") && !folder.isEmpty {
                var command = bytes("cd -- ")
                appendShellQuoted(folder, to: &command)
                command.append(contentsOf: bytes(" && "))
                command.append(contentsOf: entry.value)
                appendQuoted(command, to: &text)
            } else {
                appendValue(key: entry.key, entry.value, to: &text)
            }
            appendLine(text, entry.line, &out)
        }
        appendLine([], 0, &out)
        out.blocks += 1
    }

    private static func appendLine(_ text: [UInt8], _ source: Int, _ out: inout Converted) {
        out.toml.append(contentsOf: text)
        out.toml.append(0x0A)
        out.sourceLines.append(source)
    }

    /// A bare key when TOML allows one, else a quoted one (which the config then refuses
    /// as an environment variable's name, at this line).
    private static func appendKey(_ key: [UInt8], to text: inout [UInt8]) { appendTOMLKey(key, to: &text) }

    /// The value as the TOML type the key takes: i3blocks reads `interval` and `signal` with
    /// atoi (`5 # every 5 s` is 5; -1, -2, -3 are once, repeat, persist), and writes the
    /// i3bar keys `urgent`, `separator` (booleans) and the widths (numbers) into its JSON as
    /// they are. Every other value is text, as the command's environment has it.
    private static func appendValue(key: [UInt8], _ value: [UInt8], to text: inout [UInt8]) {
        if key == bytes("interval") || key == bytes("signal") {
            let words: [StaticString] = ["once", "repeat", "persist"]
            for word in words where bytesEqual(value[...], word) { appendQuoted(value, to: &text); return }
            let n = atoi(value)
            if key == bytes("interval") && n < 0 && n >= -3 {
                appendQuoted(bytes(n == -1 ? "once" : n == -2 ? "repeat" : "persist"), to: &text)
            } else {
                appendNumber(n, to: &text)
            }
            return
        }
        if key == bytes("urgent") || key == bytes("separator") {
            if value == bytes("true") || value == bytes("false") { text.append(contentsOf: value); return }
        }
        let numeric: [StaticString] = ["separator_block_width", "border_top", "border_right", "border_bottom", "border_left", "min_width"]
        if numeric.contains(where: { bytesEqual(key[...], $0) }), !value.isEmpty, value.count <= 9,
           value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            appendNumber(atoi(value), to: &text)   // `09` is not a TOML (or JSON) number: 9
            return
        }
        appendQuoted(value, to: &text)
    }

    /// `'text'` for /bin/sh, a `'` inside as `'\''`.
    static func appendShellQuoted(_ value: [UInt8], to text: inout [UInt8]) {
        text.append(UInt8(ascii: "'"))
        for b in value {
            if b == UInt8(ascii: "'") { text.append(contentsOf: bytes("'\\''")) } else { text.append(b) }
        }
        text.append(UInt8(ascii: "'"))
    }

    /// C's atoi: leading blanks, an optional sign, digits; 0 without digits. Saturates.
    static func atoi(_ value: [UInt8]) -> Int {
        var i = 0
        while i < value.count && (value[i] == 0x20 || (value[i] >= 0x09 && value[i] <= 0x0D)) { i += 1 }
        var negative = false
        if i < value.count && (value[i] == UInt8(ascii: "-") || value[i] == UInt8(ascii: "+")) {
            negative = value[i] == UInt8(ascii: "-")
            i += 1
        }
        var n = 0
        while i < value.count && value[i] >= UInt8(ascii: "0") && value[i] <= UInt8(ascii: "9") {
            n = min(n &* 10 &+ Int(value[i] - UInt8(ascii: "0")), 1_000_000_000)
            i += 1
        }
        return negative ? -n : n
    }

    /// A TOML basic string (TOML's writer, shared with the other bars' imports).
    static func appendQuoted(_ value: [UInt8], to text: inout [UInt8]) { appendTOMLString(value, to: &text) }
}

extension I3blocksImport {
    /// The blocks an i3blocks file makes, checked as config.toml's command blocks are; a
    /// problem is reported at its line in the i3blocks file.
    public static func blocks(from file: [UInt8], folder: [UInt8] = []) -> Result<[BarBlock], ConfigError> {
        let converted: Converted
        switch convert(file, folder: folder) {
        case .failure(let e): return .failure(ConfigError(line: e.line, column: 1, reason: bytes(e.reason)))
        case .success(let c): converted = c
        }
        let parsed = converted.toml.withUnsafeBytes { BarConfig.parse($0) }
        switch parsed {
        case .success(let config): return .success(config.blocks ?? [])
        case .failure(var e):
            // Back to the i3blocks file's line; its column is the line's start.
            e.line = e.line > 0 && e.line < converted.sourceLines.count ? converted.sourceLines[e.line] : 0
            e.column = 1
            return .failure(e)
        }
    }
}

/// A config.toml block `block = "i3blocks"`: an i3blocks config whose sections are blocks here.
public struct I3blocksInclude: Equatable, Sendable {
    /// As written (`~/` and a relative path are the reader's to resolve).
    public var path: [UInt8]
    /// Where its blocks go among the file's others.
    public var index: Int
    /// Where `file` is in config.toml, for a file that cannot be read.
    public var line: Int, column: Int
}

/// A problem in a file a config.toml names: the file (as resolved) and the problem in it.
public struct IncludedFileError: Error {
    public var file: [UInt8]
    public var error: ConfigError
    public init(file: [UInt8], error: ConfigError) { self.file = file; self.error = error }
}

extension BarConfig {
    /// The config with each i3blocks block replaced by its file's sections, in place.
    /// `read` gives a path as written its resolved path and bytes, or the reason it cannot
    /// be read (one line). A file that cannot be read or does not parse becomes one block in
    /// its place that says so (``includedFileErrorBlock(_:written:)``), its problem added to
    /// `problems`: the config's other blocks stay. The blocks then are at most
    /// ``maximumBlocks``, else the whole is refused.
    public func expandingI3blocksFiles(
        problems: inout [IncludedFileError],
        _ read: ([UInt8]) -> (path: [UInt8], bytes: [UInt8]?, reason: [UInt8])
    ) -> Result<BarConfig, IncludedFileError> {
        guard !i3blocksFiles.isEmpty else { return .success(self) }
        var expanded = self
        var blocks = self.blocks ?? []
        var found: [IncludedFileError] = []
        // From the last: each index stays right while the ones after it grow.
        for include in i3blocksFiles.reversed() {
            let at = min(include.index, blocks.count)
            let file = read(include.path)
            guard let bytes = file.bytes else {
                let problem = IncludedFileError(file: file.path, error: ConfigError(line: 0, column: 0, reason: file.reason))
                found.append(problem)
                blocks.insert(includedFileErrorBlock(problem, written: include.path), at: at)
                continue
            }
            var folder = file.path
            while let last = folder.last, last != UInt8(ascii: "/") { folder.removeLast() }
            if folder.count > 1 { folder.removeLast() }
            switch I3blocksImport.blocks(from: bytes, folder: folder) {
            case .failure(let e):
                let problem = IncludedFileError(file: file.path, error: e)
                found.append(problem)
                blocks.insert(includedFileErrorBlock(problem, written: include.path), at: at)
            case .success(let more): blocks.insert(contentsOf: more, at: at)
            }
        }
        problems.append(contentsOf: found.reversed())
        guard blocks.count <= BarConfig.maximumBlocks else {
            let first = i3blocksFiles[0]
            return .failure(IncludedFileError(file: [], error: ConfigError(line: first.line, column: first.column,
                                                                          reason: bytes("more than 64 blocks with the i3blocks file's"))))
        }
        expanded.blocks = blocks
        return .success(expanded)
    }

    /// The block shown in place of an i3blocks file's blocks when the file cannot be read or
    /// does not parse: `i3blocks ~/.config/i3blocks/config:5:1: reason`, the path as config.toml
    /// wrote it (so `config` is not read as sysstats's own file), in the critical colour. It
    /// runs nothing; the file is watched, so fixing it brings its blocks.
    func includedFileErrorBlock(_ problem: IncludedFileError, written: [UInt8]) -> BarBlock {
        var block = BarBlock(.command)
        var spec = CommandSpec(command: [])
        spec.runsAtStart = false
        spec.name = bytes("i3blocks")
        var text = bytes("i3blocks ")
        problem.error.describe(file: written, into: &text)
        spec.fullText = text
        spec.color = theme.critical
        block.command = spec
        return block
    }
}
