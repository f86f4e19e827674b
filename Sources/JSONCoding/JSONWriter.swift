/// Encodes an `Encodable` as JSON the way FoundationEssentials' JSONEncoder did for
/// the command line (`.sortedKeys`, `.withoutEscapingSlashes`), without linking Foundation:
/// the same members, numbers and escapes, byte for byte (pinned against JSONEncoder by
/// JSONWriterTests). Optionals the type encodes with `encodeIfPresent` are left out, as
/// there; a `[String: V]` keeps its keys as they are under `snakeCaseKeys`, as there.
public struct JSONWriter {
    /// Member names converted as JSONEncoder's `.convertToSnakeCase` does (`cpuMs` → `cpu_ms`).
    public var snakeCaseKeys = false
    /// The strings written for infinities and NaN; nil: encoding one fails (JSONEncoder's default).
    public var nonConformingFloats: (positiveInfinity: String, negativeInfinity: String, nan: String)?

    public init(snakeCaseKeys: Bool = false,
                nonConformingFloats: (positiveInfinity: String, negativeInfinity: String, nan: String)? = nil) {
        self.snakeCaseKeys = snakeCaseKeys
        self.nonConformingFloats = nonConformingFloats
    }

    /// `value` as one line of JSON (``JSONValue/serialized``).
    public func encode<T: Encodable>(_ value: T) throws -> String {
        var out: [UInt8] = []
        try TreeEncoder(options: self, codingPath: []).slot(value, path: []).write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func float<T: BinaryFloatingPoint & CustomStringConvertible>(_ value: T, _ path: () -> [CodingKey]) throws -> JSONValue {
        if value.isFinite { return JSONValue.number(value) }
        guard let names = nonConformingFloats else {
            throw EncodingError.invalidValue(value, .init(codingPath: path(), debugDescription: "\(value) is not valid JSON"))
        }
        return .string(value.isNaN ? names.nan : value > 0 ? names.positiveInfinity : names.negativeInfinity)
    }

    func key(_ key: CodingKey, inDictionary: Bool) -> String {
        snakeCaseKeys && !inDictionary ? JSONWriter.snakeCase(key.stringValue) : key.stringValue
    }

    /// JSONEncoder's `.convertToSnakeCase`: a word ends where a lower-case letter meets an
    /// upper-case one, and a run of capitals is a word of its own up to the capital before
    /// the next lower-case letter (`myURLProperty` → `my_url_property`, `peakRSSKiB` →
    /// `peak_rss_ki_b`); the words lower-cased and joined with `_`.
    public static func snakeCase(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard !scalars.isEmpty else { return key }
        func isUpper(_ i: Int) -> Bool { scalars[i].properties.isUppercase }
        func isLower(_ i: Int) -> Bool { scalars[i].properties.isLowercase }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = (searchStart..<scalars.count).first(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<scalars.count).first(where: isLower) else {
                wordStart = upper
                searchStart = scalars.count
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<max(wordStart, scalars.count))
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }.joined(separator: "_")
    }
}

/// A value of the tree: finished (a number, a string, a literal) or a node still being written.
enum JSONSlot {
    case value(JSONValue)
    case node(JSONNode)
}

/// A place in the tree being built: what an encoder or container writes into. Its elements
/// and members are stored properties, appended to in place (an array inside an enum's payload
/// would be copied at each append: quadratic for `history --json`'s thousands of rows); a
/// number or string is kept as a finished value, with no node of its own.
final class JSONNode {
    enum Kind { case unset, single, array, object }
    var kind = Kind.unset
    var single = JSONValue.null
    var elements: [JSONSlot] = []
    var members: [(key: String, slot: JSONSlot)] = []

    func set(_ value: JSONValue) {
        kind = .single
        single = value
    }

    func becomeArray() {
        guard kind != .array else { return }
        kind = .array
        elements = []
    }

    func becomeObject() {
        guard kind != .object else { return }
        kind = .object
        members = []
    }

    /// The node as JSON text, as ``JSONValue/serialized`` writes a value.
    func write(to out: inout [UInt8]) {
        switch kind {
        case .unset: out += "{}".utf8
        case .single: single.write(to: &out)
        case .array:
            out.append(0x5B)
            for i in elements.indices {
                if i > 0 { out.append(0x2C) }
                elements[i].write(to: &out)
            }
            out.append(0x5D)
        case .object:
            JSONValue.writeObject(members.count, key: { members[$0].key }, to: &out) { members[$0].slot.write(to: &$1) }
        }
    }
}

extension JSONSlot {
    func write(to out: inout [UInt8]) {
        switch self {
        case .value(let v): v.write(to: &out)
        case .node(let n): n.write(to: &out)
        }
    }
}

/// Marks `[String: V]`, whose keys JSONEncoder writes as they are under a key strategy.
protocol JSONStringKeyedDictionary {}
extension Dictionary: JSONStringKeyedDictionary where Key == String {}
