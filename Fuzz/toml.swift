// Fuzz target `toml`: bytes → TOMLDocument.parse, as the sampler, the CLI and the
// renderer read a config.toml that anyone with write access to it may have written.
//
// Properties:
// - parsing never traps;
// - a refusal points into the input: line ≥ 1 and column ≥ 1, within the file's lines
//   (column at most one past its line's last byte), and agreeing with the error's byte
//   offset; its description is one clean line;
// - an accepted file is at most 64 KiB of well-formed UTF-8 (checked here by Check.swift's
//   own decoder) without control bytes but tab, LF and CRLF;
// - walking every value from the root terminates, visits each value exactly once, stays
//   within the nesting limit; each table's keys are found again by lookup, keys and strings
//   are well-formed UTF-8 within their limits, and every value's and key's position is in
//   the file;
// - round trip: the document written back as TOML (inline tables, escaped basic strings,
//   Swift's shortest float text) parses to the same values, floats to the bit.

import TOML

/// Lines of the input: their start offsets (line n starts at starts[n - 1]) and lengths.
func lineStarts(_ bytes: UnsafeRawBufferPointer) -> [Int] {
    var starts = [0]
    for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
    return starts
}

func checkPosition(_ line: Int, _ column: Int, _ starts: [Int], _ size: Int, _ what: @autoclosure () -> String) {
    expect(line >= 1 && line <= starts.count, "\(what()): line \(line) of \(starts.count)")
    let end = line < starts.count ? starts[line] : size + 1   // one past the line's last byte (its LF)
    expect(column >= 1 && starts[line - 1] + column <= end, "\(what()): column \(column) past its line \(line)")
}

func checkRefusal(_ error: TOMLError, _ bytes: UnsafeRawBufferPointer, _ starts: [Int]) {
    checkPosition(error.line, error.column, starts, bytes.count, "error \(error.reason)")
    expect(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) of \(bytes.count)")
    expect(starts[error.line - 1] + error.column - 1 == error.offset,
           "error at \(error.line):\(error.column) is not its offset \(error.offset)")
    var out: [UInt8] = []
    error.describe(file: Array("config.toml".utf8), into: &out)
    expect(!out.contains(where: { $0 < 0x20 || $0 >= 0x7F }), "the error's description is not one clean line", out)
}

/// Every value reached from `value`, each checked; returns how many.
func walk(_ value: TOMLValue, depth: Int, _ starts: [Int], _ size: Int, _ seen: inout [Bool]) -> Int {
    expect(depth <= TOMLDocument.maximumDepth, "a value at depth \(depth)")
    expect(value.index >= 0 && value.index < seen.count && !seen[value.index], "value \(value.index) reached twice")
    seen[value.index] = true
    checkPosition(value.line, value.column, starts, size, "value \(value.index)")
    checkPosition(value.keyLine, value.keyColumn, starts, size, "key of value \(value.index)")
    let key = Array(value.key)
    expect(key.count <= TOMLDocument.maximumKeyLength && isValidUTF8(key), "a bad key", key)
    var count = 1
    switch value.kind {
    case .table:
        let table = value.table!
        for child in table {
            expect(child.parent?.index == value.index, "a table's child has another parent")
            expect(table[Array(child.key)]?.index == child.index, "a key is not found again in its table", Array(child.key))
            count += walk(child, depth: depth + 1, starts, size, &seen)
        }
    case .array:
        let array = value.array!
        for element in array {
            expect(element.parent?.index == value.index && element.key.isEmpty, "an array element with a key or another parent")
            expect(!array.isArrayOfTables || element.kind == .table, "an array of tables holds a \(element.kind)")
            count += walk(element, depth: depth + 1, starts, size, &seen)
        }
    case .string:
        let s = value.string!
        expect(s.count <= TOMLDocument.maximumStringLength && isValidUTF8(s), "a bad string", s)
        expect(value.stringBytes.map { Array($0) } == s, "stringBytes and string differ")
    case .integer:
        expect(value.integer != nil && value.float == nil, "an integer that is not one")
    case .float:
        expect(value.float != nil && value.integer == nil, "a float that is not one")
    case .boolean:
        expect(value.bool != nil, "a boolean that is not one")
    }
    return count
}

/// `value` as TOML text: tables inline, strings as escaped basic strings.
func write(_ value: TOMLValue, into out: inout [UInt8]) {
    switch value.kind {
    case .table:
        out += "{".utf8
        for (i, child) in value.table!.enumerated() {
            if i > 0 { out += ", ".utf8 }
            quote(Array(child.key), into: &out)
            out += " = ".utf8
            write(child, into: &out)
        }
        out += "}".utf8
    case .array:
        out += "[".utf8
        for element in value.array! {
            write(element, into: &out)
            out += ", ".utf8
        }
        out += "]".utf8
    case .string: quote(value.string!, into: &out)
    case .integer: out += String(value.integer!).utf8
    case .float: out += value.float!.description.utf8   // "nan", "inf", "-inf", "1e-05", "5e-324"
    case .boolean: out += (value.bool! ? "true" : "false").utf8
    }
}

func quote(_ bytes: [UInt8], into out: inout [UInt8]) {
    let hex = Array("0123456789ABCDEF".utf8)
    out.append(0x22)
    for b in bytes {
        switch b {
        case 0x22: out += "\\\"".utf8
        case 0x5C: out += "\\\\".utf8
        case 0x0A: out += "\\n".utf8
        case 0x09: out += "\\t".utf8
        case 0..<0x20, 0x7F: out += "\\u00".utf8; out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
        default: out.append(b)
        }
    }
    out.append(0x22)
}

/// Kinds, keys and values in order (floats by bits, any NaN alike), for comparing documents.
func shape(_ value: TOMLValue, into out: inout [UInt64]) {
    out.append(UInt64(value.kind.rawValue))
    out += value.key.map { UInt64($0) }
    out.append(.max)
    switch value.kind {
    case .table: out.append(UInt64(value.table!.count)); for c in value.table! { shape(c, into: &out) }
    case .array: out.append(UInt64(value.array!.count)); for e in value.array! { shape(e, into: &out) }
    case .string: out += value.string!.map { UInt64($0) }; out.append(.max)
    case .integer: out.append(UInt64(bitPattern: value.integer!))
    case .float: out.append(value.float!.isNaN ? 1 : value.float!.bitPattern)
    case .boolean: out.append(value.bool! ? 1 : 0)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let starts = lineStarts(input)
    let document: TOMLDocument
    do throws(TOMLError) {
        document = try TOMLDocument.parse(input)
    } catch {
        checkRefusal(error, input, starts)
        return 0
    }
    expect(size <= TOMLDocument.maximumSize && isValidUTF8(input), "accepted a file over the size or not UTF-8")
    for (i, b) in input.enumerated() where b < 0x20 || b == 0x7F {
        expect(b == 0x09 || b == 0x0A || (b == 0x0D && i + 1 < size && input[i + 1] == 0x0A),
               "accepted a file with the control byte \(b) at \(i)")
    }
    var seen = [Bool](repeating: false, count: document.valueCount)
    let count = walk(document.root.value, depth: 0, starts, size, &seen)
    expect(count == document.valueCount, "walked \(count) of \(document.valueCount) values")

    // Round trip: the root's pairs one per line.
    var text: [UInt8] = []
    for child in document.root {
        quote(Array(child.key), into: &text)
        text += " = ".utf8
        write(child, into: &text)
        text += "\n".utf8
    }
    guard text.count <= TOMLDocument.maximumSize else { return 0 }   // escapes can lengthen it
    let again: TOMLDocument
    do throws(TOMLError) {
        again = try TOMLDocument.parse(text)
    } catch {
        fuzzFail("the document written back is refused at \(error.line):\(error.column): \(error.reason.message)", text)
    }
    var a: [UInt64] = [], b: [UInt64] = []
    shape(document.root.value, into: &a)
    shape(again.root.value, into: &b)
    expect(a == b, "the document written back reads as other values", text)
    return 0
}
