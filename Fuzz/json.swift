// Fuzz target `json`: bytes → JSONParser.parse, as `sysstats budget check --baseline` reads a
// baseline file that anyone with write access to it may have written.
//
// Properties:
// - parsing never traps, whatever the nesting (refused past JSONParser.maximumDepth);
// - an accepted input holds well-formed UTF-8 (checked by Check.swift's own decoder) and no
//   raw control byte inside a string;
// - what the writer makes of a parsed value is well-formed UTF-8 without a raw control byte,
//   parses again, and is written again to the same bytes (sorted keys, the last of a
//   repeated key, escapes as JSONEncoder writes them);
// - each number's text is RFC 8259's grammar, and a Double reads it;
// - read as a baseline (BudgetBaselineFigures, as `budget check --baseline` reads it), it
//   never traps: a figure taken is finite, within ±2^53 and not below 0 but for
//   growth_per_minute; a figure refused is shown in at most 32 bytes. (1e20, 1e999 and
//   18446744073709551616 trapped the check; the seed huge-numbers.json and json.dict hold them.)

import BaselineFigures
import JSONCoding

func depth(_ value: JSONValue) -> Int {
    switch value {
    case .array(let items): return 1 + (items.map(depth).max() ?? 0)
    case .object(let members): return 1 + (members.map { depth($0.value) }.max() ?? 0)
    default: return 0
    }
}

func checkNumbers(_ value: JSONValue) {
    switch value {
    case .number(let text): expect(value.double != nil, "number \(text) does not read as a Double", Array(text.utf8))
    case .array(let items): items.forEach(checkNumbers)
    case .object(let members): members.forEach { checkNumbers($0.value) }
    default: break
    }
}

func checkBaseline(_ value: JSONValue, _ input: [UInt8]) {
    switch BudgetBaselineFigures.read(value) {
    case .success(let budgets):
        for (_, figures) in budgets {
            for (key, figure) in figures {
                expect(figure.isFinite && figure.magnitude <= BudgetBaselineFigures.maximum, "baseline figure \(figure) taken", input)
                expect(figure >= 0 || key == BudgetBaselineFigures.signedKey, "negative baseline figure \(figure) taken for \(key)", input)
            }
        }
    case .failure(.outOfRange(_, _, let number)):
        expect(number.utf8.count <= 32, "a refused figure shown in \(number.utf8.count) bytes", input)
    case .failure(.notABaseline):
        break
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard let value = JSONParser.parse(input) else { return 0 }
    expect(isValidUTF8(input), "accepted input that is not UTF-8", input)
    expect(depth(value) <= JSONParser.maximumDepth, "nesting \(depth(value)) past the limit", input)
    checkNumbers(value)
    checkBaseline(value, input)
    let written = Array(value.serialized.utf8)
    expect(isValidUTF8(written), "written JSON is not UTF-8", written)
    expect(!written.contains(where: { $0 < 0x20 }), "written JSON holds a raw control byte", written)
    guard let again = JSONParser.parse(written) else { fuzzFail("written JSON does not parse again", written) }
    expect(Array(again.serialized.utf8) == written, "written again, it is not the same bytes", written)
    return 0
}
