// Per-block `--format` templates: parsed once at start into literal byte runs
// and placeholder ids, then walked on every update to write into the block's
// reused buffer. No parsing and no allocation per update.

import SnapshotCodec

/// One piece of a parsed format: a run of literal bytes or a placeholder.
enum FormatPart: Equatable, Sendable {
    /// `BlockFormat.literals[start..<end]`.
    case literal(start: UInt16, end: UInt16)
    case field(Placeholder)
}

/// One block's parsed `--format`: literal bytes (braces already unescaped)
/// and the sequence of literal runs and placeholders, allocated once.
public struct BlockFormat: Equatable, Sendable {
    /// The longest format text accepted, in bytes.
    public static let maximumLength = 256

    /// The block the format is for.
    public let block: BlockKind
    var literals: [UInt8]
    var parts: [FormatPart]

    /// Parses `text` (the part after `BLOCK=`) for `block`. `{name}` is a
    /// placeholder, `{{` and `}}` are literal braces.
    public init(_ text: ArraySlice<UInt8>, for block: BlockKind) throws(OptionsError) {
        guard text.count <= BlockFormat.maximumLength else { throw .formatTooLong }
        self.block = block
        literals = []
        literals.reserveCapacity(text.count)
        parts = []
        parts.reserveCapacity(text.count / 2 + 1)
        var runStart = 0
        var i = text.startIndex
        let end = text.endIndex
        while i < end {
            let b = text[i]
            if b == UInt8(ascii: "{") {
                if i + 1 < end && text[i + 1] == UInt8(ascii: "{") {
                    literals.append(b); i += 2; continue
                }
                var j = i + 1
                while j < end && text[j] != UInt8(ascii: "}") { j += 1 }
                guard j < end else { throw .unclosedBrace }
                guard let p = Placeholder(block: block, name: text[(i + 1)..<j]) else {
                    throw .unknownPlaceholder(block, name: Array(text[(i + 1)..<j].prefix(64)), offset: i - text.startIndex)
                }
                if literals.count > runStart {
                    parts.append(.literal(start: UInt16(runStart), end: UInt16(literals.count)))
                    runStart = literals.count
                }
                parts.append(.field(p))
                i = j + 1
            } else if b == UInt8(ascii: "}") {
                guard i + 1 < end && text[i + 1] == UInt8(ascii: "}") else { throw .unmatchedBrace }
                literals.append(b); i += 2
            } else {
                literals.append(b); i += 1
            }
        }
        if literals.count > runStart {
            parts.append(.literal(start: UInt16(runStart), end: UInt16(literals.count)))
        }
    }

    /// The parts its placeholders show beyond its block's own (cpu's `{frequency}`).
    public var alsoShows: SnapshotSections {
        var sections: SnapshotSections = []
        for part in parts {
            if case .field(let p) = part { sections.formUnion(p.block.placeholders[Int(p.index)].alsoShows) }
        }
        return sections
    }

    /// Writes the format filled in from `snap` to `w` (appends; raw text, escaped later by the output).
    func render(_ snap: Snapshot, _ context: BlockContext, into w: inout ByteWriter) {
        for part in parts {
            switch part {
            case .literal(let start, let end):
                for k in Int(start)..<Int(end) { w.append(literals[k]) }
            case .field(let p):
                p.append(snap, context, into: &w)
            }
        }
    }
}

/// The `--format` of each block; nil for blocks shown in their built-in form.
public struct BlockFormats: Equatable, Sendable {
    var byBlock: [BlockFormat?]
    /// `--format time=TEXT`: a strftime(3) format, kept as given.
    public private(set) var timeFormat: [UInt8]? = nil

    public init() { byBlock = Array(repeating: nil, count: BlockKind.allCases.count) }

    /// The format for `kind`, or nil when it has none.
    public subscript(kind: BlockKind) -> BlockFormat? {
        get { byBlock[Int(kind.rawValue)] }
        set { byBlock[Int(kind.rawValue)] = newValue }
    }

    /// Parses one `--format` value, `BLOCK=TEXT`, and adds it; each block may have one.
    public mutating func add(_ value: ArraySlice<UInt8>) throws(OptionsError) {
        guard let eq = value.firstIndex(of: UInt8(ascii: "=")) else { throw .formatSyntax }
        guard let kind = BlockKind(name: value[..<eq]) else { throw .unknownFormatBlock }
        guard self[kind] == nil, !kind.isClock || timeFormat == nil else { throw .duplicateFormat }
        if kind.isClock {
            let text = value[(eq + 1)...]
            guard text.count <= BlockFormat.maximumLength else { throw .formatTooLong }
            // strftime stops at a NUL; an empty format would show nothing at all.
            guard !text.isEmpty, !text.contains(0) else { throw .badTimeFormat }
            timeFormat = Array(text)
            return
        }
        self[kind] = try BlockFormat(value[(eq + 1)...], for: kind)
    }
}
