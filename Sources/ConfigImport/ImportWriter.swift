// The imported config as config.toml text: the same input gives the same bytes.

import TOML

/// What a line of the written config.toml came from, so that a value the bar refuses can be
/// taken out again (`ImportedConfig.remove`).
public enum ImportLineOrigin: Equatable, Sendable {
    case none
    case theme(Int)
    case sampler(Int)
    /// A block's `[[block]]` or `block =` line.
    case block(item: Int)
    case key(item: Int, key: Int)
    case click(item: Int, click: Int)
}

extension ImportedConfig {
    /// config.toml with a comment before each block naming where it came from, and one
    /// before each module that became nothing saying why. `shownFile` is the file as the
    /// header names it.
    public func toml(shownFile: String) -> String { tomlWithOrigins(shownFile: shownFile).text }

    /// The text and, for each of its lines (the first at 0), what it came from.
    public func tomlWithOrigins(shownFile: String) -> (text: String, origins: [ImportLineOrigin]) {
        var out = ""
        var origins: [ImportLineOrigin] = []
        func line(_ text: String, _ origin: ImportLineOrigin = .none) { out += text + "\n"; origins.append(origin) }
        line("# Imported from \(oneLine(shownFile)) by `sysstats config import \(source.rawValue)`:")
        line("# docs/configuration.md, \"Moving from \(source.rawValue)\"; `sysstats config check` checks it.")
        for note in droppedSettings {
            line("# not carried over: \(source.fileName) line \(note.line): \(oneLine(note.module)): \(oneLine(note.reason))")
        }
        if !theme.isEmpty {
            line(""); line("[theme]")
            for (i, k) in theme.enumerated() { line(k.tomlLine, .theme(i)) }
        }
        if !sampler.isEmpty {
            line(""); line("[sampler]")
            for (i, k) in sampler.enumerated() { line(k.tomlLine, .sampler(i)) }
        }
        for (index, item) in items.enumerated() {
            switch item {
            case .note(let n):
                line("")
                line("# not carried over: \(source.fileName) line \(n.line): \(tomlString(n.module)): \(oneLine(n.reason))")
            case .block(let b):
                line("")
                line("# from \(source.fileName) line \(b.line): \(tomlString(b.module))")
                if !b.dropped.isEmpty { line("# left behind: \(oneLine(b.dropped.joined(separator: "; ")))") }
                line("[[block]]", .block(item: index))
                line(ImportedKey("block", .string(b.block)).tomlLine, .block(item: index))
                for (k, key) in b.keys.enumerated() { line(key.tomlLine, .key(item: index, key: k)) }
                for (k, c) in b.clicks.enumerated() {
                    line("[[block.click]]", .click(item: index, click: k))
                    line(ImportedKey("button", .string(c.button)).tomlLine, .click(item: index, click: k))
                    line((c.action.map { ImportedKey("action", .string($0)) } ?? ImportedKey("cmd", .string(c.cmd))).tomlLine, .click(item: index, click: k))
                }
            }
        }
        return (out, origins)
    }

    /// Takes out what `origin` wrote, because config.toml refuses it for `reason`: a key or a
    /// click becomes something left behind, a whole block a note. False when nothing was there.
    public mutating func remove(_ origin: ImportLineOrigin, because reason: String) -> Bool {
        switch origin {
        case .none: return false
        case .theme(let i) where i < theme.count:
            dropSetting(line: 0, theme[i].key, reason); theme.remove(at: i)
        case .sampler(let i) where i < sampler.count:
            dropSetting(line: 0, sampler[i].key, reason); sampler.remove(at: i)
        case .block(let item) where item < items.count:
            guard case .block(let b) = items[item] else { return false }
            items[item] = .note(ImportNote(line: b.line, module: b.module, outcome: .noBlock, reason: "block \(b.block): \(reason)"))
        case .key(let item, let k) where item < items.count:
            guard case .block(var b) = items[item], k < b.keys.count else { return false }
            b.drop("\(b.keys[k].key) (\(reason))")
            b.keys.remove(at: k)
            items[item] = .block(b)
        case .click(let item, let k) where item < items.count:
            guard case .block(var b) = items[item], k < b.clicks.count else { return false }
            b.drop("click \(b.clicks[k].button) (\(reason))")
            b.clicks.remove(at: k)
            items[item] = .block(b)
        default: return false
        }
        return true
    }

    /// One line per thing not carried over, `FILE:LINE: "module": reason`, for stderr.
    public func summaryLines(shownFile: String) -> [String] {
        var lines: [String] = []
        for n in droppedSettings { lines.append("\(shownFile):\(n.line): \(oneLine(n.module)): \(oneLine(n.reason))") }
        for item in items {
            switch item {
            case .note(let n): lines.append("\(shownFile):\(n.line): \(tomlString(n.module)): \(oneLine(n.reason))")
            case .block(let b) where !b.dropped.isEmpty:
                lines.append("\(shownFile):\(b.line): \(tomlString(b.module)): became block \"\(b.block)\"; left behind: \(oneLine(b.dropped.joined(separator: "; ")))")
            default: break
            }
        }
        let all = items.count
        let native = items.filter { if case .native = $0.outcome { true } else { false } }.count
        let complete = items.filter { $0.outcome == .native(complete: true) }.count
        let commands = items.filter { $0.outcome == .command }.count
        lines.append("\(shownFile): \(all) module(s): \(native) as sysstats blocks (\(complete) with every figure), \(commands) as command blocks, \(all - native - commands) not carried over")
        return lines
    }
}

extension ImportedKey {
    /// `key = value`; a key TOML cannot take bare is quoted.
    var tomlLine: String {
        var text: [UInt8] = []
        appendTOMLKey(Array(key.utf8), to: &text)
        return String(decoding: text, as: UTF8.self) + " = " + value.toml
    }
}

extension ImportValue {
    var toml: String {
        switch self {
        case .string(let s): tomlString(s)
        case .integer(let i): String(i)
        case .decimal(let d): d
        case .bool(let b): b ? "true" : "false"
        }
    }
}

/// A TOML basic string (TOML's writer, shared with the i3blocks import).
public func tomlString(_ text: String) -> String {
    var out: [UInt8] = []
    appendTOMLString(text.utf8, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Text for a comment or a message: control characters as spaces, so it stays one line.
func oneLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
            out += " "
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
