/// The `Encoder` behind ``JSONWriter``: each encoder and container writes into a
/// ``JSONNode`` of the tree.
struct TreeEncoder: Encoder {
    let options: JSONWriter
    let codingPath: [CodingKey]
    /// Where this encoder writes.
    let target: JSONNode
    /// Whether it encodes a `[String: V]` (whose keys no key strategy converts).
    var isDictionary = false
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(options: JSONWriter, codingPath: [CodingKey], node: JSONNode = JSONNode(), isDictionary: Bool = false) {
        self.options = options
        self.codingPath = codingPath
        self.target = node
        self.isDictionary = isDictionary
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        target.becomeObject()
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        target.becomeArray()
        return UnkeyedTreeContainer(encoder: self)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleTreeContainer(encoder: self) }

    /// `value` as JSONEncoder encodes it: numbers, strings and booleans as themselves (no
    /// node), anything else through its own `encode(to:)` into a node of its own.
    func slot<T: Encodable>(_ value: T, path: @autoclosure () -> [CodingKey]) throws -> JSONSlot {
        if let scalar = value as? JSONScalar { return .value(try scalar.json(options, path)) }
        let node = JSONNode()
        try value.encode(to: TreeEncoder(options: options, codingPath: path(), node: node, isDictionary: value is JSONStringKeyedDictionary))
        return .node(node)
    }
}

/// What JSONEncoder writes as a JSON number, string or literal.
protocol JSONScalar {
    func json(_ options: JSONWriter, _ path: () -> [CodingKey]) throws -> JSONValue
}
extension String: JSONScalar { func json(_: JSONWriter, _: () -> [CodingKey]) -> JSONValue { .string(self) } }
extension Bool: JSONScalar { func json(_: JSONWriter, _: () -> [CodingKey]) -> JSONValue { .bool(self) } }
extension Double: JSONScalar { func json(_ o: JSONWriter, _ p: () -> [CodingKey]) throws -> JSONValue { try o.float(self, p) } }
extension Float: JSONScalar { func json(_ o: JSONWriter, _ p: () -> [CodingKey]) throws -> JSONValue { try o.float(self, p) } }
extension BinaryInteger { func json(_: JSONWriter, _: () -> [CodingKey]) -> JSONValue { .number(String(self)) } }
extension Int: JSONScalar {}
extension Int8: JSONScalar {}
extension Int16: JSONScalar {}
extension Int32: JSONScalar {}
extension Int64: JSONScalar {}
extension UInt: JSONScalar {}
extension UInt8: JSONScalar {}
extension UInt16: JSONScalar {}
extension UInt32: JSONScalar {}
extension UInt64: JSONScalar {}

struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    private func put(_ slot: JSONSlot, _ key: Key) {
        encoder.target.members.append((key: encoder.options.key(key, inDictionary: encoder.isDictionary), slot: slot))
    }

    private func node(_ key: Key) -> JSONNode {
        let child = JSONNode()
        put(.node(child), key)
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { put(.value(.null), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try encoder.slot(value, path: codingPath + [key]), key)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(options: encoder.options, codingPath: codingPath + [key], node: node(key)).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        TreeEncoder(options: encoder.options, codingPath: codingPath + [key], node: node(key)).unkeyedContainer()
    }
    mutating func superEncoder() -> Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
    mutating func superEncoder(forKey key: Key) -> Encoder {
        TreeEncoder(options: encoder.options, codingPath: codingPath + [key], node: node(key))
    }
}

struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [CodingKey] { encoder.codingPath }
    var count: Int { encoder.target.elements.count }

    private var path: [CodingKey] { codingPath + [IndexKey(intValue: count)] }

    private func node() -> JSONNode {
        let child = JSONNode()
        encoder.target.elements.append(.node(child))
        return child
    }

    mutating func encodeNil() throws { encoder.target.elements.append(.value(.null)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.target.elements.append(try encoder.slot(value, path: path))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = self.path
        return TreeEncoder(options: encoder.options, codingPath: path, node: node()).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = self.path
        return TreeEncoder(options: encoder.options, codingPath: path, node: node()).unkeyedContainer()
    }
    mutating func superEncoder() -> Encoder {
        let path = self.path
        return TreeEncoder(options: encoder.options, codingPath: path, node: node())
    }
}

struct SingleTreeContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.target.set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        switch try encoder.slot(value, path: codingPath) {
        case .value(let v): encoder.target.set(v)
        case .node(let n):
            encoder.target.kind = n.kind
            encoder.target.single = n.single
            encoder.target.elements = n.elements
            encoder.target.members = n.members
        }
    }
}

/// An array element's place in a coding path.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
