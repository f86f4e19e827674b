// The TOML 1.0 parser's structure: the encoding pass, lines, keys, table headers, values,
// arrays, inline tables, and the rules against redefinition. Strings and numbers are in
// TOMLScalars.swift. Every input is hostile: reads go through `byte(_:)` (0 past the end,
// which the encoding pass guarantees is no byte of the file), nesting is capped before
// recursing, and sizes are capped while bytes are written.

import UTF8Text

struct TOMLParser {
    /// One part of a (dotted) key: its decoded bytes in the arena and where it is written.
    struct KeyPart {
        var start: Int32
        var length: Int32
        var offset: Int32
    }

    let bytes: UnsafeRawBufferPointer
    var pos = 0
    var document = TOMLDocument()
    /// The parts of the key being read (reused; a nested inline table overwrites it, so
    /// callers copy what they need before parsing a value).
    var keyParts: [KeyPart] = []
    /// The table the following key/value pairs go into: the root, or the last header's.
    var section: Int32 = 0
    /// Digits of the float being read (reused).
    var digits: [UInt8] = []

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The byte at `i`, or 0 past the end (after `checkEncoding`, 0 is never in the file).
    @inline(__always)
    func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

    var atEnd: Bool { pos >= bytes.count }

    func error(_ reason: TOMLError.Reason, at offset: Int) -> TOMLError {
        let p = document.position(of: offset)
        return TOMLError(line: p.line, column: p.column, offset: offset, reason: reason)
    }

    // MARK: - Document

    mutating func parseDocument() throws(TOMLError) {
        try checkEncoding()
        // A UTF-8 byte order mark at the start is skipped (toml-test reads such a file as valid).
        if byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF { pos = 3 }
        document.nodes.append(TOMLNode(kind: .table, flags: .explicit, depth: 0, parent: -1, keyStart: 0, keyLength: 0,
                                       keyOffset: 0, valueOffset: 0, payload: 0, count: 0, last: -1, first: 0))
        while true {
            skipWhitespace()
            if atEnd { break }
            switch byte(pos) {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
                break
            case UInt8(ascii: "["):
                try parseHeader()
            default:
                try parseKeyValue(in: section)
            }
            try endOfLine()
        }
        document.finish()
    }

    /// The whole file first: its size, UTF-8, no control character but tab and CRLF/LF
    /// (TOML allows no other anywhere: strings must escape them), and where lines start.
    mutating func checkEncoding() throws(TOMLError) {
        guard bytes.count <= TOMLDocument.maximumSize else { throw error(.fileTooLarge, at: 0) }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x80 {
                let n = UTF8Text.sequenceLength(bytes, at: i)
                guard n > 0 else { throw error(.invalidUTF8, at: i) }
                i += n
                continue
            }
            if b == UInt8(ascii: "\n") {
                document.lineStarts.append(Int32(i + 1))
            } else if b == UInt8(ascii: "\r") {
                guard byte(i + 1) == UInt8(ascii: "\n") else { throw error(.bareCarriageReturn, at: i) }
            } else if (b < 0x20 && b != UInt8(ascii: "\t")) || b == 0x7F {
                throw error(.controlCharacter, at: i)
            }
            i += 1
        }
    }

    mutating func skipWhitespace() {
        while byte(pos) == UInt8(ascii: " ") || byte(pos) == UInt8(ascii: "\t") { pos += 1 }
    }

    /// Skips a comment to the end of its line (its bytes were checked by `checkEncoding`).
    mutating func skipComment() {
        guard byte(pos) == UInt8(ascii: "#") else { return }
        while !atEnd && byte(pos) != UInt8(ascii: "\n") && byte(pos) != UInt8(ascii: "\r") { pos += 1 }
    }

    /// After a pair or a header: blanks, perhaps a comment, then the end of the line or file.
    mutating func endOfLine() throws(TOMLError) {
        skipWhitespace()
        skipComment()
        if atEnd { return }
        switch byte(pos) {
        case UInt8(ascii: "\n"): pos += 1
        case UInt8(ascii: "\r"): pos += 2   // always CRLF (checkEncoding)
        default: throw error(.expectedEndOfLine, at: pos)
        }
    }

    /// Blanks, newlines and comments, as allowed between an array's elements.
    mutating func skipBlankLines() {
        while true {
            skipWhitespace()
            skipComment()
            switch byte(pos) {
            case UInt8(ascii: "\n"): pos += 1
            case UInt8(ascii: "\r"): pos += 2
            default: return
            }
        }
    }

    // MARK: - Nodes

    /// Adds a value under `parent` (a table when `key` is given, else an array), refusing
    /// nesting beyond the limit. The node comes before its children: numbers follow file order.
    mutating func addNode(_ kind: TOMLKind, parent: Int32, key: KeyPart?, flags: TOMLNode.Flags = [],
                          at valueOffset: Int, payload: UInt64 = 0) throws(TOMLError) -> Int32 {
        let depth = Int(document.nodes[Int(parent)].depth) + 1
        guard depth <= TOMLDocument.maximumDepth else {
            throw error(.nestingTooDeep, at: key.map { Int($0.offset) } ?? valueOffset)
        }
        let n = Int32(document.nodes.count)
        document.nodes.append(TOMLNode(kind: kind, flags: flags, depth: UInt8(depth), parent: parent,
                                       keyStart: key?.start ?? 0, keyLength: key?.length ?? 0,
                                       keyOffset: key?.offset ?? Int32(valueOffset), valueOffset: Int32(valueOffset),
                                       payload: payload, count: 0, last: -1, first: 0))
        document.nodes[Int(parent)].count += 1
        document.nodes[Int(parent)].last = n
        if key != nil { document.index(n) }
        return n
    }

    func find(_ parent: Int32, _ part: KeyPart) -> Int32? {
        document.arena.withUnsafeBytes { a in
            document.find(parent: parent,
                          key: UnsafeRawBufferPointer(rebasing: a[Int(part.start)..<Int(part.start + part.length)]))
        }
    }

    // MARK: - Keys

    /// Reads a key, dotted or not, into `keyParts`; stops after the blanks that follow it.
    mutating func parseKey() throws(TOMLError) {
        keyParts.removeAll(keepingCapacity: true)
        while true {
            skipWhitespace()
            let offset = pos
            // More parts than the nesting limit could never be placed: stop before storing them.
            guard keyParts.count < TOMLDocument.maximumDepth else { throw error(.nestingTooDeep, at: offset) }
            let start = document.arena.count
            switch byte(pos) {
            case UInt8(ascii: "\""):
                try parseBasicString(limit: TOMLDocument.maximumKeyLength, tooLong: .keyTooLong)
            case UInt8(ascii: "'"):
                try parseLiteralString(limit: TOMLDocument.maximumKeyLength, tooLong: .keyTooLong)
            default:
                while TOMLParser.isBareKeyByte(byte(pos)) {
                    document.arena.append(byte(pos))
                    pos += 1
                }
                guard pos > offset else { throw error(.expectedKey, at: offset) }
                guard pos - offset <= TOMLDocument.maximumKeyLength else { throw error(.keyTooLong, at: offset) }
            }
            keyParts.append(KeyPart(start: Int32(start), length: Int32(document.arena.count - start), offset: Int32(offset)))
            skipWhitespace()
            guard byte(pos) == UInt8(ascii: ".") else { return }
            pos += 1
        }
    }

    static func isBareKeyByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    // MARK: - Table headers

    /// `[a.b]` or `[[a.b]]`: the table the following pairs go into.
    mutating func parseHeader() throws(TOMLError) {
        let start = pos
        let isArray = byte(pos + 1) == UInt8(ascii: "[")
        pos += isArray ? 2 : 1
        try parseKey()
        guard byte(pos) == UInt8(ascii: "]") else { throw error(.unterminatedHeader, at: pos) }
        if isArray {
            guard byte(pos + 1) == UInt8(ascii: "]") else { throw error(.unterminatedHeader, at: pos + 1) }
            pos += 2
        } else {
            pos += 1
        }
        var table: Int32 = 0
        for part in keyParts.dropLast() { table = try enterFromHeader(table, part) }
        let last = keyParts[keyParts.count - 1]
        guard let existing = find(table, last) else {
            if isArray {
                let array = try addNode(.array, parent: table, key: last, flags: [.explicit, .arrayOfTables], at: start)
                section = try addNode(.table, parent: array, key: nil, flags: .explicit, at: start)
            } else {
                section = try addNode(.table, parent: table, key: last, flags: .explicit, at: start)
            }
            return
        }
        let node = document.nodes[Int(existing)]
        switch node.kind {
        case .table where isArray:
            throw error(.tableAndArrayOfTables, at: Int(last.offset))
        case .table:
            if node.flags.contains(.frozen) { throw error(.inlineTableExtended, at: Int(last.offset)) }
            // Defined by a header already, or by dotted keys (TOML: a table made by dotted keys
            // cannot be given a header); only a header's implicit parent may be defined now.
            if !node.flags.isDisjoint(with: [.explicit, .dotted]) { throw error(.tableDefinedTwice, at: Int(last.offset)) }
            document.nodes[Int(existing)].flags.insert(.explicit)
            document.nodes[Int(existing)].keyOffset = last.offset
            document.nodes[Int(existing)].valueOffset = Int32(start)
            section = existing
        case .array:
            guard node.flags.contains(.arrayOfTables) else { throw error(.staticArrayExtended, at: Int(last.offset)) }
            guard isArray else { throw error(.tableAndArrayOfTables, at: Int(last.offset)) }
            section = try addNode(.table, parent: existing, key: nil, flags: .explicit, at: start)
        default:
            throw error(.keyIsNotATable, at: Int(last.offset))
        }
    }

    /// A header's parent key: an existing table, the last table of an array of tables, or
    /// a new (implicit) table.
    mutating func enterFromHeader(_ table: Int32, _ part: KeyPart) throws(TOMLError) -> Int32 {
        guard let n = find(table, part) else {
            return try addNode(.table, parent: table, key: part, at: Int(part.offset))
        }
        let node = document.nodes[Int(n)]
        switch node.kind {
        case .table:
            if node.flags.contains(.frozen) { throw error(.inlineTableExtended, at: Int(part.offset)) }
            return n
        case .array:
            guard node.flags.contains(.arrayOfTables) else { throw error(.staticArrayExtended, at: Int(part.offset)) }
            return node.last
        default:
            throw error(.keyIsNotATable, at: Int(part.offset))
        }
    }

    // MARK: - Key/value pairs

    /// `key = value` into `table` (the section's table, or an inline table).
    mutating func parseKeyValue(in table: Int32) throws(TOMLError) {
        try parseKey()
        guard byte(pos) == UInt8(ascii: "=") else { throw error(.expectedEquals, at: pos) }
        pos += 1
        skipWhitespace()
        var target = table
        for part in keyParts.dropLast() { target = try enterFromDottedKey(target, part) }
        let last = keyParts[keyParts.count - 1]
        if find(target, last) != nil { throw error(.duplicateKey, at: Int(last.offset)) }
        _ = try parseValue(parent: target, key: last)
    }

    /// A dotted key's parent part: a table it made or entered in this section, a header's
    /// implicit table (which no header may define afterwards), or a new table.
    mutating func enterFromDottedKey(_ table: Int32, _ part: KeyPart) throws(TOMLError) -> Int32 {
        guard let n = find(table, part) else {
            return try addNode(.table, parent: table, key: part, flags: .dotted, at: Int(part.offset))
        }
        let node = document.nodes[Int(n)]
        switch node.kind {
        case .table:
            if node.flags.contains(.frozen) { throw error(.inlineTableExtended, at: Int(part.offset)) }
            if node.flags.contains(.explicit) { throw error(.dottedKeyIntoDefinedTable, at: Int(part.offset)) }
            document.nodes[Int(n)].flags.insert(.dotted)
            return n
        case .array:
            if node.flags.contains(.frozen) { throw error(.staticArrayExtended, at: Int(part.offset)) }
            throw error(.dottedKeyIntoDefinedTable, at: Int(part.offset))
        default:
            throw error(.keyIsNotATable, at: Int(part.offset))
        }
    }

    // MARK: - Values

    /// One value, added under `parent` (with `key` in a table, without in an array).
    mutating func parseValue(parent: Int32, key: KeyPart?) throws(TOMLError) -> Int32 {
        let start = pos
        switch byte(pos) {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let stringStart = document.arena.count
            if byte(pos) == UInt8(ascii: "\"") {
                if byte(pos + 1) == UInt8(ascii: "\"") && byte(pos + 2) == UInt8(ascii: "\"") {
                    try parseMultilineString(literal: false)
                } else {
                    try parseBasicString(limit: TOMLDocument.maximumStringLength, tooLong: .stringTooLong)
                }
            } else {
                if byte(pos + 1) == UInt8(ascii: "'") && byte(pos + 2) == UInt8(ascii: "'") {
                    try parseMultilineString(literal: true)
                } else {
                    try parseLiteralString(limit: TOMLDocument.maximumStringLength, tooLong: .stringTooLong)
                }
            }
            let length = document.arena.count - stringStart
            return try addNode(.string, parent: parent, key: key, at: start,
                               payload: UInt64(stringStart) | UInt64(length) << 32)
        case UInt8(ascii: "["):
            return try parseArray(parent: parent, key: key)
        case UInt8(ascii: "{"):
            return try parseInlineTable(parent: parent, key: key)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "i"), UInt8(ascii: "n"):
            let scalar = try parseWordOrNumber()
            switch scalar {
            case .boolean(let b):
                return try addNode(.boolean, parent: parent, key: key, at: start, payload: b ? 1 : 0)
            case .integer(let i):
                return try addNode(.integer, parent: parent, key: key, at: start, payload: UInt64(bitPattern: i))
            case .float(let d):
                return try addNode(.float, parent: parent, key: key, at: start, payload: d.bitPattern)
            }
        default:
            throw error(.expectedValue, at: pos)
        }
    }

    /// `[ v, v, ]`: any kinds, over lines, comments between, a trailing comma allowed.
    mutating func parseArray(parent: Int32, key: KeyPart?) throws(TOMLError) -> Int32 {
        let array = try addNode(.array, parent: parent, key: key, at: pos)
        pos += 1
        while true {
            skipBlankLines()
            if byte(pos) == UInt8(ascii: "]") { break }
            _ = try parseValue(parent: array, key: nil)
            skipBlankLines()
            if byte(pos) == UInt8(ascii: ",") {
                pos += 1
            } else if byte(pos) != UInt8(ascii: "]") {
                throw error(.unterminatedArray, at: pos)
            }
        }
        pos += 1
        document.nodes[Int(array)].flags.insert(.frozen)
        return array
    }

    /// `{ k = v, k.k = v }` on one line (a value inside, such as an array, may span lines);
    /// no trailing comma; nothing may add to it later.
    mutating func parseInlineTable(parent: Int32, key: KeyPart?) throws(TOMLError) -> Int32 {
        let table = try addNode(.table, parent: parent, key: key, at: pos)
        pos += 1
        skipWhitespace()
        if byte(pos) == UInt8(ascii: "}") {
            pos += 1
        } else {
            while true {
                try parseKeyValue(in: table)
                skipWhitespace()
                if byte(pos) == UInt8(ascii: "}") {
                    pos += 1
                    break
                }
                guard byte(pos) == UInt8(ascii: ",") else { throw error(.unterminatedInlineTable, at: pos) }
                let comma = pos
                pos += 1
                skipWhitespace()
                if byte(pos) == UInt8(ascii: "}") { throw error(.trailingCommaInInlineTable, at: comma) }
            }
        }
        document.nodes[Int(table)].flags.insert(.frozen)
        return table
    }
}
