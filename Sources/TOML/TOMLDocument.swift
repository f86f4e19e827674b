// A parsed TOML document as flat arrays: one node per value (tables and arrays
// included), the decoded bytes of every key and string in one arena, an open-addressing
// index from (table, key) to node, and each container's children in file order. It
// allocates while parsing only: reading values afterwards copies nothing but the string
// accessor's result. Embedded-clean (no String, no existentials, no metadata).

/// The type of a TOML value. Dates and times are refused by the parser, so there is no case for them.
public enum TOMLKind: UInt8, Equatable, Sendable, CaseIterable {
    case table, array, string, integer, float, boolean

    /// The kind's name as the TOML specification writes it, for messages such as
    /// `expected a string, found an integer`.
    public var name: StaticString {
        switch self {
        case .table: "table"
        case .array: "array"
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        }
    }
}

/// One value of the flat node array (internal: read through ``TOMLValue``).
struct TOMLNode: Sendable {
    /// How a table or array came to be; decides what TOML lets later lines do to it.
    struct Flags: OptionSet, Sendable {
        var rawValue: UInt8
        /// Defined by a `[header]`, or an array of tables and its elements (`[[header]]`).
        static let explicit = Flags(rawValue: 1)
        /// Created or entered by a dotted key (`a.b = 1` defines `a`): no header may define it later.
        static let dotted = Flags(rawValue: 2)
        /// An inline table or an array value: complete where it is written.
        static let frozen = Flags(rawValue: 4)
        /// An array made by `[[header]]`.
        static let arrayOfTables = Flags(rawValue: 8)
    }

    var kind: TOMLKind
    var flags: Flags
    /// 0 for the root table, the parent's depth + 1 for the others.
    var depth: UInt8
    /// The containing table or array (-1 for the root).
    var parent: Int32
    /// The key's bytes in the arena (length 0 for the root and array elements).
    var keyStart: Int32
    var keyLength: Int32
    /// Byte offsets in the file of the key (or of the value, without a key) and of the value.
    var keyOffset: Int32
    var valueOffset: Int32
    /// An integer's bits, a float's bit pattern, a boolean's 0/1, or a string's arena
    /// start (low 32 bits) and length (high 32 bits).
    var payload: UInt64
    /// Children (tables and arrays): how many, the last one added (while parsing), and
    /// once parsing is done, where they start in the document's `children`.
    var count: Int32
    var last: Int32
    var first: Int32
}

/// A parsed TOML 1.0 document (dates and times excepted: they are refused).
///
/// ```swift
/// let document = try TOMLDocument.parse(bytes)          // throws(TOMLError)
/// if let interval = document.root["interval"] {
///     guard let seconds = interval.integer else { /* "expected an integer" at interval.line:interval.column */ }
/// }
/// for entry in document.root { /* entry.key, entry.kind, entry.keyLine, entry.keyColumn */ }
/// ```
public struct TOMLDocument: Sendable {
    /// The largest file accepted, in bytes.
    public static let maximumSize = 65536
    /// The deepest nesting of tables, arrays and inline tables: the root's values are at
    /// depth 1, `a.b.c = 1` puts the integer at depth 3.
    public static let maximumDepth = 32
    /// The longest string value, in bytes after escapes.
    public static let maximumStringLength = 4096
    /// The longest key (each part of a dotted key), in bytes after escapes.
    public static let maximumKeyLength = 256

    /// Every value; node 0 is the root table. Siblings are in file order.
    var nodes: [TOMLNode] = []
    /// Decoded keys and strings.
    var arena: [UInt8] = []
    /// Open-addressing index of table keys: node numbers, -1 for an empty slot; its size is a power of two.
    var slots: [Int32] = []
    var usedSlots = 0
    /// The children of every table and array, each container's contiguous and in file order.
    var children: [Int32] = []
    /// The byte offset at which each line starts (line 1 at 0).
    var lineStarts: [Int32] = [0]

    init() {}

    /// Parses `bytes` as TOML 1.0: the whole file, which must be UTF-8 and at most
    /// ``maximumSize`` bytes. Throws the first problem found, with its line and column.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(TOMLError) -> TOMLDocument {
        var parser = TOMLParser(bytes)
        try parser.parseDocument()
        return parser.document
    }

    /// Parses `bytes`; see ``parse(_:)-(UnsafeRawBufferPointer)``.
    public static func parse(_ bytes: [UInt8]) throws(TOMLError) -> TOMLDocument {
        // Array.withUnsafeBytes rethrows untyped errors: carry the typed one out in a Result.
        let result = bytes.withUnsafeBytes { raw -> Result<TOMLDocument, TOMLError> in
            do throws(TOMLError) { return .success(try parse(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The top-level table.
    public var root: TOMLTable { TOMLTable(TOMLValue(document: self, index: 0)) }

    /// How many values the document holds, the root table and every nested table and array included.
    public var valueCount: Int { nodes.count }

    /// Value number `index` (0 is the root; `0..<valueCount`), e.g. to walk every value.
    public func value(at index: Int) -> TOMLValue? {
        index >= 0 && index < nodes.count ? TOMLValue(document: self, index: index) : nil
    }

    // MARK: - Positions

    /// The 1-based line and byte column of a byte offset.
    func position(of offset: Int) -> (line: Int, column: Int) {
        // The last line starting at or before `offset`.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if Int(lineStarts[mid]) <= offset { low = mid } else { high = mid - 1 }
        }
        return (low + 1, offset - Int(lineStarts[low]) + 1)
    }

    // MARK: - Key index

    /// FNV-1a over the key, seeded with the table's number.
    static func hash(parent: Int32, key: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15
        for b in key {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    /// The child of table `parent` named `key`, if any.
    func find(parent: Int32, key: UnsafeRawBufferPointer) -> Int32? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: TOMLDocument.hash(parent: parent, key: key)) & mask
        while true {
            let n = slots[i]
            if n < 0 { return nil }
            if nodes[Int(n)].parent == parent && keyEquals(Int(n), key) { return n }
            i = (i + 1) & mask
        }
    }

    func keyEquals(_ n: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let node = nodes[n]
        guard Int(node.keyLength) == key.count else { return false }
        var k = 0
        var a = Int(node.keyStart)
        while k < key.count {
            if arena[a] != key[k] { return false }
            k += 1; a += 1
        }
        return true
    }

    /// Adds node `n` (a child of a table, its key in the arena) to the index.
    mutating func index(_ n: Int32) {
        if (usedSlots + 1) * 2 > slots.count { growIndex() }
        insertSlot(n)
        usedSlots += 1
    }

    private mutating func insertSlot(_ n: Int32) {
        let node = nodes[Int(n)]
        let h = arena.withUnsafeBytes { a in
            TOMLDocument.hash(parent: node.parent,
                              key: UnsafeRawBufferPointer(rebasing: a[Int(node.keyStart)..<Int(node.keyStart + node.keyLength)]))
        }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = n
    }

    private mutating func growIndex() {
        let old = slots
        slots = [Int32](repeating: -1, count: max(64, slots.count * 2))
        for n in old where n >= 0 { insertSlot(n) }
    }

    /// Lays the children of every container out contiguously, in file order (node numbers
    /// grow in file order, so a counting sort by parent keeps siblings in order).
    mutating func finish() {
        var start = [Int32](repeating: 0, count: nodes.count + 1)
        for n in 1..<nodes.count { start[Int(nodes[n].parent) + 1] += 1 }
        for n in 0..<nodes.count { start[n + 1] += start[n] }
        children = [Int32](repeating: 0, count: max(nodes.count - 1, 0))
        var next = start
        for n in 1..<nodes.count {
            let p = Int(nodes[n].parent)
            children[Int(next[p])] = Int32(n)
            next[p] += 1
        }
        for n in 0..<nodes.count { nodes[n].first = start[n] }
    }
}

/// One value of a ``TOMLDocument``: a table, an array, a string, an integer, a float or a
/// boolean, with where it was written. The typed accessors return nil for another kind
/// (no conversion: an integer is not a float).
public struct TOMLValue: Sendable {
    let document: TOMLDocument
    /// The value's number in its document (0 is the root); stable, see ``TOMLDocument/value(at:)``.
    public let index: Int

    init(document: TOMLDocument, index: Int) {
        self.document = document; self.index = index
    }

    var node: TOMLNode { document.nodes[index] }

    public var kind: TOMLKind { node.kind }

    /// The key under which its table holds it (decoded, without quotes; the last part of
    /// a dotted key); empty for the root and for an array's elements (and for `"" = 1`).
    /// A slice of the document's storage: its indices do not start at 0.
    public var key: ArraySlice<UInt8> {
        let n = node
        return document.arena[Int(n.keyStart)..<Int(n.keyStart + n.keyLength)]
    }

    /// Where the value starts: 1-based line and byte column (see ``TOMLError/column``).
    /// For a table defined by a header, the header's `[`; for a table made by dotted keys
    /// or as a header's parent, the key that first named it; the root is at 1:1.
    public var line: Int { document.position(of: Int(node.valueOffset)).line }
    public var column: Int { document.position(of: Int(node.valueOffset)).column }
    /// Where its key is written (the last part of a dotted key, or a header's last key);
    /// for an array element, where the element starts.
    public var keyLine: Int { document.position(of: Int(node.keyOffset)).line }
    public var keyColumn: Int { document.position(of: Int(node.keyOffset)).column }

    /// The table or array that holds it; nil for the root.
    public var parent: TOMLValue? {
        let p = node.parent
        return p < 0 ? nil : TOMLValue(document: document, index: Int(p))
    }

    /// A string's decoded bytes (valid UTF-8, escapes applied, CRLF read as LF), as a copy.
    public var string: [UInt8]? { stringBytes.map { Array($0) } }

    /// A string's decoded bytes without copying: a slice of the document's storage, whose
    /// indices do not start at 0.
    public var stringBytes: ArraySlice<UInt8>? {
        let n = node
        guard n.kind == .string else { return nil }
        let start = Int(n.payload & 0xFFFF_FFFF), length = Int(n.payload >> 32)
        return document.arena[start..<start + length]
    }

    public var integer: Int64? {
        let n = node
        return n.kind == .integer ? Int64(bitPattern: n.payload) : nil
    }

    public var float: Double? {
        let n = node
        return n.kind == .float ? Double(bitPattern: n.payload) : nil
    }

    public var bool: Bool? {
        let n = node
        return n.kind == .boolean ? n.payload != 0 : nil
    }

    public var array: TOMLArray? { node.kind == .array ? TOMLArray(self) : nil }

    public var table: TOMLTable? { node.kind == .table ? TOMLTable(self) : nil }
}

/// A table: its values in file order (as a collection), and lookup by key.
public struct TOMLTable: RandomAccessCollection, Sendable {
    /// The table itself as a value (its position, its key, its parent).
    public let value: TOMLValue

    init(_ value: TOMLValue) { self.value = value }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(value.node.count) }

    /// The `position`th key/value pair in file order (the order in which keys were first
    /// written; a table named by a header before its parent's own header comes first).
    /// Its ``TOMLValue/key`` is the key.
    public subscript(position: Int) -> TOMLValue {
        precondition(position >= 0 && position < endIndex, "TOMLTable index out of range")
        let doc = value.document
        return TOMLValue(document: doc, index: Int(doc.children[Int(doc.nodes[value.index].first) + position]))
    }

    /// The value under `key` (the decoded key: no quotes, no escapes), if any.
    public subscript(key: UnsafeRawBufferPointer) -> TOMLValue? {
        let doc = value.document
        return doc.find(parent: Int32(value.index), key: key).map { TOMLValue(document: doc, index: Int($0)) }
    }

    public subscript(key: [UInt8]) -> TOMLValue? {
        key.withUnsafeBytes { self[$0] }
    }

    public subscript(key: StaticString) -> TOMLValue? {
        key.withUTF8Buffer { self[UnsafeRawBufferPointer($0)] }
    }
}

/// An array: a value array (`key = [1, 2]`, any mix of kinds) or an array of tables
/// (`[[key]]`), its elements in file order.
public struct TOMLArray: RandomAccessCollection, Sendable {
    /// The array itself as a value (its position, its key, its parent).
    public let value: TOMLValue

    init(_ value: TOMLValue) { self.value = value }

    /// True for an array made by `[[header]]` (every element a table).
    public var isArrayOfTables: Bool { value.node.flags.contains(.arrayOfTables) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { Int(value.node.count) }

    public subscript(position: Int) -> TOMLValue {
        precondition(position >= 0 && position < endIndex, "TOMLArray index out of range")
        let doc = value.document
        return TOMLValue(document: doc, index: Int(doc.children[Int(doc.nodes[value.index].first) + position]))
    }
}
