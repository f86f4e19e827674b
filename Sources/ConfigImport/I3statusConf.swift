// i3status's config file as i3status (libconfuse) reads it: `general { … }`, `order +=
// "name instance"`, `name [instance] { key = value … }` (`name{` without a space too),
// values quoted with `"` or `'` or bare, `#` and `//` comments to the end of the line and
// `/* … */` comments.

/// One `name [instance] { … }` section.
struct I3statusSection {
    var name: String
    var instance: String?
    var line: Int
    var settings: [(key: String, value: String, line: Int)] = []

    subscript(key: String) -> String? { settings.last { $0.key == key }?.value }
    func line(of key: String) -> Int { settings.last { $0.key == key }?.line ?? line }
}

/// The file: its sections and its `order` in bar order.
struct I3statusConf {
    var sections: [I3statusSection] = []
    var order: [(module: String, line: Int)] = []

    /// The section an `order` entry names: `disk /` → `disk` with instance `/`.
    func section(for entry: String) -> I3statusSection? {
        let (name, instance) = I3statusConf.split(entry)
        return sections.last { $0.name == name && $0.instance == instance }
    }

    static func split(_ entry: String) -> (String, String?) {
        guard let space = entry.firstIndex(of: " ") else { return (entry, nil) }
        var instance = entry[entry.index(after: space)...]
        while instance.first == " " { instance = instance.dropFirst() }
        return (String(entry[..<space]), instance.isEmpty ? nil : String(instance))
    }

    var general: I3statusSection? { sections.last { $0.name == "general" } }

    static func parse(_ text: String) throws(ImportError) -> I3statusConf {
        var lexer = ConfuseLexer(text)
        var conf = I3statusConf()
        while let token = try lexer.next() {
            guard case .word(let name) = token.kind else {
                throw ImportError(line: token.line, "expected a section name or `order`, found \(token.kind.shown)")
            }
            guard let after = try lexer.next() else { throw ImportError(line: token.line, "\(name): the file ends here") }
            if name == "order" {
                guard after.kind == .plusEquals || after.kind == .equals else {
                    throw ImportError(line: after.line, "order takes += \"module\"")
                }
                try conf.readOrder(&lexer, line: after.line, replacing: after.kind == .equals)
                continue
            }
            var section = I3statusSection(name: name, line: token.line)
            var open = after
            if case .word(let w) = after.kind { section.instance = w; open = try lexer.expect(line: after.line) }
            else if case .string(let s) = after.kind { section.instance = s; open = try lexer.expect(line: after.line) }
            guard open.kind == .open else { throw ImportError(line: open.line, "\(name): expected {, found \(open.kind.shown)") }
            try section.readSettings(&lexer)
            conf.sections.append(section)
        }
        return conf
    }

    private mutating func readOrder(_ lexer: inout ConfuseLexer, line: Int, replacing: Bool) throws(ImportError) {
        let value = try lexer.expect(line: line)
        if replacing { order.removeAll() }
        switch value.kind {
        case .string(let s), .word(let s): order.append((s, value.line))
        case .open:   // order = { "a", "b" }, libconfuse's list
            while true {
                let item = try lexer.expect(line: value.line)
                if item.kind == .close { break }
                if item.kind == .comma { continue }
                guard case .string(let s) = item.kind else { throw ImportError(line: item.line, "order: expected a module name, found \(item.kind.shown)") }
                order.append((s, item.line))
            }
        default: throw ImportError(line: value.line, "order: expected a module name, found \(value.kind.shown)")
        }
    }
}

extension I3statusSection {
    fileprivate mutating func readSettings(_ lexer: inout ConfuseLexer) throws(ImportError) {
        while true {
            let key = try lexer.expect(line: line)
            if key.kind == .close { return }
            guard case .word(let k) = key.kind else { throw ImportError(line: key.line, "\(name): expected a key or }, found \(key.kind.shown)") }
            let eq = try lexer.expect(line: key.line)
            guard eq.kind == .equals else { throw ImportError(line: eq.line, "\(name): \(k) needs =") }
            let value = try lexer.expect(line: eq.line)
            switch value.kind {
            case .string(let v), .word(let v): settings.append((k, v, key.line))
            default: throw ImportError(line: value.line, "\(name): \(k) needs a value, found \(value.kind.shown)")
            }
        }
    }
}

/// libconfuse's tokens, as far as i3status's grammar uses them.
struct ConfuseLexer {
    enum Kind: Equatable {
        case word(String), string(String), open, close, equals, plusEquals, comma
        var shown: String {
            switch self {
            case .word(let w): "\"\(oneLine(w))\""
            case .string(let s): "\"\(oneLine(s))\""
            case .open: "{"
            case .close: "}"
            case .equals: "="
            case .plusEquals: "+="
            case .comma: ","
            }
        }
    }
    struct Token { var kind: Kind; var line: Int }

    private var scalars: [Unicode.Scalar]
    private var i = 0
    private(set) var line = 1

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func expect(line: Int) throws(ImportError) -> Token {
        guard let t = try next() else { throw ImportError(line: line, "the file ends inside a section") }
        return t
    }

    mutating func next() throws(ImportError) -> Token? {
        skipSpaceAndComments()
        guard i < scalars.count else { return nil }
        let c = scalars[i]
        let at = line
        switch c {
        case "{": i += 1; return Token(kind: .open, line: at)
        case "}": i += 1; return Token(kind: .close, line: at)
        case "=": i += 1; return Token(kind: .equals, line: at)
        case ",": i += 1; return Token(kind: .comma, line: at)
        case "+" where i + 1 < scalars.count && scalars[i + 1] == "=": i += 2; return Token(kind: .plusEquals, line: at)
        case "\"", "'": return Token(kind: .string(try quoted(c)), line: at)
        default:
            var word = ""
            while i < scalars.count, !Self.isBreak(scalars[i]) { word.unicodeScalars.append(scalars[i]); i += 1 }
            if word.isEmpty { throw ImportError(line: at, "unexpected \(c.escaped(asASCII: true))") }
            return Token(kind: .word(word), line: at)
        }
    }

    private static func isBreak(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "{" || c == "}" || c == "=" || c == "\"" || c == "'" || c == "#" || c == ","
    }

    private mutating func quoted(_ quote: Unicode.Scalar) throws(ImportError) -> String {
        let start = line
        i += 1
        var out = ""
        while i < scalars.count {
            let c = scalars[i]
            if c == quote { i += 1; return out }
            if c == "\n" { line += 1 }
            if c == "\\", quote == "\"", i + 1 < scalars.count {
                i += 1
                let e = scalars[i]
                switch e {
                case "n": out += "\n"
                case "t": out += "\t"
                case "\n": line += 1
                default: out.unicodeScalars.append(e)
                }
            } else {
                out.unicodeScalars.append(c)
            }
            i += 1
        }
        throw ImportError(line: start, "a string has no closing \(quote)")
    }

    private mutating func skipSpaceAndComments() {
        while i < scalars.count {
            let c = scalars[i]
            if c == "\n" { line += 1; i += 1 }
            else if c == " " || c == "\t" || c == "\r" { i += 1 }
            else if c == "#" || (c == "/" && i + 1 < scalars.count && scalars[i + 1] == "/") {
                while i < scalars.count, scalars[i] != "\n" { i += 1 }
            } else if c == "/" && i + 1 < scalars.count && scalars[i + 1] == "*" {
                i += 2
                while i < scalars.count, !(scalars[i] == "*" && i + 1 < scalars.count && scalars[i + 1] == "/") {
                    if scalars[i] == "\n" { line += 1 }
                    i += 1
                }
                i = min(i + 2, scalars.count)
            } else { return }
        }
    }
}
