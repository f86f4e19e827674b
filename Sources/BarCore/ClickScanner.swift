// i3bar click events: a stream opened by a `[` line, then one JSON object per
// line, each after the first prefixed by `,` (swaybar sends no `modifiers`).
// The scanner is tolerant: garbage, partial lines and huge lines are ignored,
// never fatal. It looks only for the `name` and `button` members.

/// A click on one of our blocks.
public struct ClickEvent: Equatable, Sendable {
    /// The block clicked; `.command` for a name that is no built-in block's (a command block's).
    public var block: BlockKind
    /// X11 button: 1 left, 2 middle, 3 right, 4/5 wheel.
    public var button: Int
    /// For a command block: i3bar's `name` and `instance` of the block, and where the pointer was.
    public var name: [UInt8] = []
    public var instance: [UInt8] = []
    public var x = 0, y = 0
    /// The rest of what i3bar says of a click (i3blocks passes them to the command):
    /// the pointer within the block, the block's size, the pointer on its output, the
    /// modifiers held (raw JSON, `["Shift"]`; empty when not sent). -1: not sent.
    public var relativeX = -1, relativeY = -1, width = -1, height = -1, outputX = -1, outputY = -1
    public var modifiers: [UInt8] = []
    /// A click on a block of the program wrapped by block `wrappedBlock` (`block = "i3bar"`);
    /// `name` and `instance` are then that program's own. -1: none.
    public var wrappedBlock = -1
    public init(block: BlockKind, button: Int) { self.block = block; self.button = button }

    /// The `name` i3bar sent: ``name``, or the built-in block's.
    public var blockName: [UInt8] {
        guard name.isEmpty, block != .command else { return name }
        let n = block.name
        return Array(UnsafeBufferPointer(start: n.utf8Start, count: n.utf8CodeUnitCount))
    }
}

/// Splits stdin bytes into lines (of bounded length) and finds click events in them.
public struct ClickScanner {
    /// Lines longer than this are dropped whole.
    public static let maximumLineLength = 4096

    private var lineBuffer: [UInt8]
    private var overflowed = false

    /// Creates a scanner with its line buffer allocated once.
    public init() {
        lineBuffer = []
        lineBuffer.reserveCapacity(ClickScanner.maximumLineLength)
    }

    /// Feeds bytes read from stdin; calls `onClick` for each complete line that is a
    /// click on a known block.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onClick: (ClickEvent) -> Void) {
        var position = 0
        while let event = next(in: bytes, position: &position) { onClick(event) }
    }

    /// Consumes `bytes` from `position` up to the end of the next line that is a
    /// click on a known block and returns that click; nil when `bytes` are used up
    /// (a partial line is kept for the next call).
    public mutating func next(in bytes: UnsafeRawBufferPointer, position: inout Int) -> ClickEvent? {
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            if b == 0x0A {
                let event = overflowed ? nil : ClickScanner.parse(lineBuffer[...])
                lineBuffer.removeAll(keepingCapacity: true)
                overflowed = false
                if let event { return event }
            } else if overflowed {
                continue
            } else if lineBuffer.count >= ClickScanner.maximumLineLength {
                overflowed = true
                lineBuffer.removeAll(keepingCapacity: true)
            } else {
                lineBuffer.append(b)
            }
        }
        return nil
    }

    /// Parses one line: optional `,` or `[`, then an object with string `name`
    /// and integer `button`. Returns nil for anything else.
    public static func parse(_ line: ArraySlice<UInt8>) -> ClickEvent? {
        guard let nameValue = stringMember(line, "\"name\""),
              let button = integerMember(line, "\"button\"")
        else { return nil }
        let instance = stringMember(line, "\"instance\"") ?? []
        var event = ClickEvent(block: .command, button: button)
        event.x = integerMember(line, "\"x\"") ?? 0
        event.y = integerMember(line, "\"y\"") ?? 0
        event.relativeX = integerMember(line, "\"relative_x\"") ?? -1
        event.relativeY = integerMember(line, "\"relative_y\"") ?? -1
        event.width = integerMember(line, "\"width\"") ?? -1
        event.height = integerMember(line, "\"height\"") ?? -1
        event.outputX = integerMember(line, "\"output_x\"") ?? -1
        event.outputY = integerMember(line, "\"output_y\"") ?? -1
        event.modifiers = arrayMember(line, "\"modifiers\"") ?? []
        // A wrapped program's block (`i3bar:<block index>:<its instance>`), whatever its name.
        if let (index, start) = wrappedInstance(instance) {
            event.wrappedBlock = index
            event.name = nameValue
            event.instance = Array(instance[start...])
            return event
        }
        // A command block that has a built-in block's name and instance (CommandSpec.clickTagged).
        if let start = prefixEnd(instance, commandInstancePrefix) {
            guard !nameValue.isEmpty, nameValue.count <= 64, instance.count - start <= 64 else { return nil }
            event.name = nameValue
            event.instance = Array(instance[start...])
            return event
        }
        guard !nameValue.isEmpty, nameValue.count <= 64, instance.count <= 64 else { return nil }
        // A built-in block's name is its kind's (``ClickEvent/blockName``); a command block
        // may have it too (i3blocks' `[time]`): the instance tells them apart.
        if let block = BlockKind(name: nameValue[...]), block != .command { event.block = block } else { event.name = nameValue }
        event.instance = instance
        return event
    }

    /// Where the rest of `bytes` starts after `prefix`; nil when it does not start with it.
    static func prefixEnd(_ bytes: [UInt8], _ prefix: StaticString) -> Int? {
        let n = prefix.utf8CodeUnitCount
        guard bytes.count >= n else { return nil }
        for k in 0..<n where bytes[k] != prefix.utf8Start[k] { return nil }
        return n
    }

    /// The block index and where the wrapped program's own instance starts, when `instance`
    /// is `i3bar:<index>:…` (as ``wrappedInstancePrefix`` writes it).
    static func wrappedInstance(_ instance: [UInt8]) -> (Int, Int)? {
        guard let n = prefixEnd(instance, wrappedInstancePrefix), instance.count > n else { return nil }
        var i = n, index = 0
        while i < instance.count, instance[i] >= 48, instance[i] <= 57, i - n < 3 {
            index = index * 10 + Int(instance[i] - 48)
            i += 1
        }
        guard i > n, i < instance.count, instance[i] == UInt8(ascii: ":") else { return nil }
        return (index, i + 1)
    }

    /// The index just after `key` followed by optional blanks and `:` and blanks.
    static func valueStart(_ line: ArraySlice<UInt8>, _ key: StaticString) -> Int? {
        let k = key.utf8Start, n = key.utf8CodeUnitCount
        var i = line.startIndex
        while i + n <= line.endIndex {
            var match = true
            for j in 0..<n where line[i + j] != k[j] { match = false; break }
            if match {
                var p = i + n
                while p < line.endIndex && (line[p] == 0x20 || line[p] == 0x09) { p += 1 }
                if p < line.endIndex && line[p] == UInt8(ascii: ":") {
                    p += 1
                    while p < line.endIndex && (line[p] == 0x20 || line[p] == 0x09) { p += 1 }
                    return p
                }
            }
            i += 1
        }
        return nil
    }

    /// A string member, its escapes decoded (a wrapped program's names may have some); nil
    /// when missing, malformed or longer than 128 bytes.
    static func stringMember(_ line: ArraySlice<UInt8>, _ key: StaticString) -> [UInt8]? {
        guard let p = valueStart(line, key), p < line.endIndex, line[p] == UInt8(ascii: "\"") else { return nil }
        var out = ByteWriter(capacity: 129)
        let ok = line.withUnsafeBytes { raw -> Bool in
            var r = JSONReader(raw)
            r.i = p - line.startIndex
            return r.string(into: &out, limit: 129)
        }
        guard ok, out.count <= 128 else { return nil }
        return out.bytes
    }

    /// An array member as its raw JSON text (`["Shift","Mod1"]`), control bytes left out; nil
    /// when missing, not an array or longer than 128 bytes.
    static func arrayMember(_ line: ArraySlice<UInt8>, _ key: StaticString) -> [UInt8]? {
        guard let p = valueStart(line, key), p < line.endIndex, line[p] == UInt8(ascii: "[") else { return nil }
        var out: [UInt8] = []
        var inString = false, escaped = false
        for i in p..<line.endIndex {
            let b = line[i]
            guard out.count < 128 else { return nil }
            if b >= 0x20 && b != 0x7F { out.append(b) }
            if escaped { escaped = false; continue }
            if inString {
                if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "]") {
                return out
            }
        }
        return nil
    }

    /// A small non-negative integer member.
    static func integerMember(_ line: ArraySlice<UInt8>, _ key: StaticString) -> Int? {
        guard var p = valueStart(line, key) else { return nil }
        var value = 0, digits = 0
        while p < line.endIndex, line[p] >= 48, line[p] <= 57, digits < 6 {
            value = value * 10 + Int(line[p] - 48)
            digits += 1
            p += 1
        }
        return digits > 0 ? value : nil
    }
}
