// A program's command line as one table: each option's name, value and description, from
// which the same table parses the arguments, writes `--help` and writes the manual's
// SYNOPSIS and OPTIONS. Over bytes and StaticStrings, so that the Embedded renderer and the
// sampler (which keeps String code out of its resident pages) both use it; the Embedded twin
// CommandOptionsEmbedded is a symbolic link to this folder.

/// One option: `--name VALUE`, or a flag when `value` is empty.
///
/// Not generic over the program's option enum: a generic value type's metadata is made at run
/// time, and the sampler would keep the runtime's code for that resident (its raw value is kept).
public struct CommandOption: Sendable {
    /// What the program's parser switches on: the raw value of its option enum.
    public let id: UInt8
    /// `--interval`.
    public let name: StaticString
    /// Another spelling, `-h`; empty for none.
    public let alias: StaticString
    /// The value's placeholder, `SEC`; empty for a flag.
    public let value: StaticString
    /// What it does: lines separated by "\n", without indentation.
    public let help: StaticString
    /// Given more than once it adds (`--disk PATH`...).
    public let repeatable: Bool
    /// Shown in `--help` and the manual's OPTIONS, left out of the synopsis' first line
    /// (`--help`, `--version`: a line of their own).
    public let inSynopsis: Bool
    /// The manual's paragraph, roff (cross references in `.BR`); empty: `help`, escaped.
    public let manual: StaticString

    @inlinable
    public init<ID: RawRepresentable>(_ id: ID, _ name: StaticString, alias: StaticString = "", value: StaticString = "",
                repeatable: Bool = false, inSynopsis: Bool = true, _ help: StaticString, manual: StaticString = "")
        where ID.RawValue == UInt8 {
        self.id = id.rawValue; self.name = name; self.alias = alias; self.value = value
        self.help = help; self.repeatable = repeatable; self.inSynopsis = inSynopsis; self.manual = manual
    }

    var takesValue: Bool { value.utf8CodeUnitCount > 0 }
}

/// What is wrong with an argument before any option's own check.
public enum CommandOptionError: Error, Equatable, Sendable {
    /// Not an option of the table: the argument as given (at most 64 bytes, before any `=`).
    case unknown([UInt8])
    /// An option that takes a value was last: its name.
    case missingValue([UInt8])
    /// A flag given `--flag=value`: its name.
    case unexpectedValue([UInt8])
}

/// A program's options.
public struct CommandOptions: Sendable {
    public let program: StaticString
    public let options: [CommandOption]

    public init(program: StaticString, _ options: [CommandOption]) {
        self.program = program
        self.options = options
    }

    /// Calls `body` with each option given (its ``CommandOption/id``), in order, and its value (`--opt VALUE` or
    /// `--opt=VALUE`; nil for a flag), until it returns false. An argument that is not one of
    /// the table's, or a value missing or given to a flag, goes to `failure`, whose error is
    /// thrown.
    public func parse<E: Error>(_ arguments: [[UInt8]], failure: (CommandOptionError) -> E,
                                _ body: (UInt8, ArraySlice<UInt8>?) throws(E) -> Bool) throws(E) {
        try walk(arguments, failure: failure) { (option: CommandOption, index: Int, start: Int?) throws(E) -> Bool in
            try body(option.id, start.map { arguments[index][$0...] })
        }
    }

    /// `arguments` with the value of each option for which `rewrite` gives new bytes replaced
    /// by them, in either spelling (`--opt VALUE`, `--opt=VALUE`). From an argument the table
    /// refuses on, the rest is left as given: ``parse(_:failure:_:)`` says what is wrong.
    public func rewritingValues(_ arguments: [[UInt8]], _ rewrite: (UInt8, ArraySlice<UInt8>) -> [UInt8]?) -> [[UInt8]] {
        var result = arguments
        do throws(CommandOptionError) {
            try walk(arguments, failure: { $0 }) { (option: CommandOption, index: Int, start: Int?) throws(CommandOptionError) -> Bool in
                if let start, let value = rewrite(option.id, arguments[index][start...]) {
                    result[index].replaceSubrange(start..<result[index].count, with: value)
                }
                return true
            }
        } catch {}
        return result
    }

    /// The one reading of the syntax: `body` gets each option, the index of the argument that
    /// holds its value (the option's own for a flag) and where the value starts in it (nil
    /// for a flag), until it returns false.
    private func walk<E: Error>(_ arguments: [[UInt8]], failure: (CommandOptionError) -> E,
                                _ body: (CommandOption, Int, Int?) throws(E) -> Bool) throws(E) {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            var name = argument[...]
            var inline: Int?
            if argument.count > 2, argument[0] == 0x2D, argument[1] == 0x2D, let eq = argument.firstIndex(of: 0x3D) {
                name = argument[..<eq]
                inline = eq + 1
            }
            guard let option = find(name) else { throw failure(.unknown(Array(name.prefix(64)))) }
            if option.takesValue {
                if inline == nil {
                    i += 1
                    guard i < arguments.count else { throw failure(.missingValue(bytes(option.name))) }
                }
                guard try body(option, i, inline ?? 0) else { return }
            } else {
                guard inline == nil else { throw failure(.unexpectedValue(bytes(option.name))) }
                guard try body(option, i, nil) else { return }
            }
            i += 1
        }
    }

    private func find(_ name: ArraySlice<UInt8>) -> CommandOption? {
        for option in options where equal(name, option.name) || (option.alias.utf8CodeUnitCount > 0 && equal(name, option.alias)) {
            return option
        }
        return nil
    }

    // MARK: --help

    /// `usage: PROGRAM [--opt VALUE]...`, wrapped under the program's name.
    public func writeUsage(into out: inout [UInt8], width: Int = 92) {
        append("usage: ", to: &out)
        append(program, to: &out)
        let indent = 7 + program.utf8CodeUnitCount
        var column = indent
        for option in options where option.inSynopsis {
            var item: [UInt8] = [0x5B]
            append(option.name, to: &item)
            if option.takesValue { item.append(0x20); append(option.value, to: &item) }
            item.append(0x5D)
            if option.repeatable { append("...", to: &item) }
            if column + 1 + item.count > width {
                out.append(0x0A)
                for _ in 0..<indent { out.append(0x20) }
                column = indent
            }
            out.append(0x20)
            out.append(contentsOf: item)
            column += 1 + item.count
        }
        out.append(0x0A)
    }

    /// Each option, `  --name VALUE` with its description beside it from column `column`
    /// (under it when the name is longer).
    public func writeOptions(into out: inout [UInt8], column: Int = 24) {
        for option in options {
            var head: [UInt8] = [0x20, 0x20]
            if option.alias.utf8CodeUnitCount > 0 { append(option.alias, to: &head); append(", ", to: &head) }
            append(option.name, to: &head)
            if option.takesValue { head.append(0x20); append(option.value, to: &head) }
            out.append(contentsOf: head)
            var first = true
            forEachLine(option.help) { line in
                if first && head.count < column {
                    for _ in head.count..<column { out.append(0x20) }
                } else {
                    out.append(0x0A)
                    for _ in 0..<column { out.append(0x20) }
                }
                first = false
                out.append(contentsOf: line)
            }
            out.append(0x0A)
        }
    }

    // MARK: the manual

    /// The manual's SYNOPSIS body (roff, after `.SH SYNOPSIS`): the options, then those left
    /// out of the first line (`--help | --version`) on a line of their own.
    public func writeManualSynopsis(into out: inout [UInt8]) {
        append(".B ", to: &out); appendRoff(program, to: &out); out.append(0x0A)
        for option in options where option.inSynopsis {
            append(".RB [ ", to: &out); appendRoff(option.name, to: &out)
            if option.takesValue {
                out.append(0x0A)
                append(".IR ", to: &out); appendRoff(option.value, to: &out)
            }
            append(option.repeatable ? " ]...\n" : " ]\n", to: &out)
        }
        var first = true
        for option in options where !option.inSynopsis {
            if first {
                append(".br\n.B ", to: &out); appendRoff(program, to: &out); append("\n.BR ", to: &out)
            } else {
                append(" \" | \" ", to: &out)
            }
            appendRoff(option.name, to: &out)
            first = false
        }
        if !first { out.append(0x0A) }
    }

    /// The manual's OPTIONS body (roff, after `.SH OPTIONS`): a `.TP` paragraph per option,
    /// its ``CommandOption/manual`` text or else its help.
    public func writeManualOptions(into out: inout [UInt8]) {
        for option in options {
            append(".TP\n", to: &out)
            if option.takesValue {
                append(".BI ", to: &out); appendRoff(option.name, to: &out)
                append(" \" ", to: &out); appendRoff(option.value, to: &out); append("\"\n", to: &out)
            } else if option.alias.utf8CodeUnitCount > 0 {
                append(".BR ", to: &out); appendRoff(option.alias, to: &out)
                append(" \", \" ", to: &out); appendRoff(option.name, to: &out); out.append(0x0A)
            } else {
                append(".B ", to: &out); appendRoff(option.name, to: &out); out.append(0x0A)
            }
            if option.manual.utf8CodeUnitCount > 0 {
                append(option.manual, to: &out)
                out.append(0x0A)
                continue
            }
            // The help as a sentence: capitalised, with its full stop.
            var first = true
            forEachLine(option.help) { line in
                // A line starting with a dot or a quote would be a request.
                if let lead = line.first, lead == 0x2E || lead == 0x27 { append("\\&", to: &out) }
                for (i, byte) in line.enumerated() {
                    appendRoff(first && i == 0 && byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte, to: &out)
                }
                first = false
                out.append(0x0A)
            }
            if out.count >= 2, out[out.count - 2] != 0x2E {
                out.insert(0x2E, at: out.count - 1)
            }
        }
    }
}

/// The bytes of a StaticString.
@inline(__always)
func bytes(_ text: StaticString) -> [UInt8] {
    var out: [UInt8] = []
    append(text, to: &out)
    return out
}

func append(_ text: StaticString, to out: inout [UInt8]) {
    let start = text.utf8Start
    for i in 0..<text.utf8CodeUnitCount { out.append(start[i]) }
}

func equal(_ bytes: ArraySlice<UInt8>, _ text: StaticString) -> Bool {
    guard bytes.count == text.utf8CodeUnitCount else { return false }
    let start = text.utf8Start
    var i = 0
    for byte in bytes {
        if byte != start[i] { return false }
        i += 1
    }
    return true
}

/// Each "\n"-separated line of `text`.
func forEachLine(_ text: StaticString, _ body: ([UInt8]) -> Void) {
    let start = text.utf8Start
    var line: [UInt8] = []
    for i in 0..<text.utf8CodeUnitCount {
        if start[i] == 0x0A {
            body(line)
            line.removeAll(keepingCapacity: true)
        } else {
            line.append(start[i])
        }
    }
    if !line.isEmpty { body(line) }
}

/// A byte as roff text: `-` and `\` escaped.
func appendRoff(_ byte: UInt8, to out: inout [UInt8]) {
    if byte == 0x2D || byte == 0x5C { out.append(0x5C) }
    out.append(byte)
}

func appendRoff(_ text: StaticString, to out: inout [UInt8]) {
    let start = text.utf8Start
    for i in 0..<text.utf8CodeUnitCount { appendRoff(start[i], to: &out) }
}
