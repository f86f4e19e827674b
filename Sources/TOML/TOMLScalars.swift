// Strings, booleans and numbers: decoded into the document's arena (strings) or a
// `Scalar`. Sizes are checked as bytes are written, numbers saturate or are refused
// before they overflow, and a value that starts like a date or a time is refused as one
// (never read as a number).

import UTF8Text

extension TOMLParser {
    enum Scalar {
        case boolean(Bool)
        case integer(Int64)
        case float(Double)
    }

    // MARK: - Strings

    /// Appends one decoded byte of the string that started at `open` (arena offset `start`).
    @inline(__always)
    mutating func appendStringByte(_ b: UInt8, start: Int, limit: Int, tooLong: TOMLError.Reason, open: Int) throws(TOMLError) {
        guard document.arena.count - start < limit else { throw error(tooLong, at: open) }
        document.arena.append(b)
    }

    /// `"..."` on one line, with escapes.
    mutating func parseBasicString(limit: Int, tooLong: TOMLError.Reason) throws(TOMLError) {
        let open = pos, start = document.arena.count
        pos += 1
        while true {
            let b = byte(pos)
            if atEnd || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { throw error(.unterminatedString, at: open) }
            if b == UInt8(ascii: "\"") {
                pos += 1
                return
            }
            if b == UInt8(ascii: "\\") {
                try parseEscape(start: start, limit: limit, tooLong: tooLong, open: open)
            } else {
                try appendStringByte(b, start: start, limit: limit, tooLong: tooLong, open: open)
                pos += 1
            }
        }
    }

    /// `'...'` on one line, as written.
    mutating func parseLiteralString(limit: Int, tooLong: TOMLError.Reason) throws(TOMLError) {
        let open = pos, start = document.arena.count
        pos += 1
        while true {
            let b = byte(pos)
            if atEnd || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { throw error(.unterminatedString, at: open) }
            pos += 1
            if b == UInt8(ascii: "'") { return }
            try appendStringByte(b, start: start, limit: limit, tooLong: tooLong, open: open)
        }
    }

    /// `"""..."""` (escapes, line-ending backslashes) or `'''...'''` (as written): a
    /// newline right after the opening quotes is dropped, CRLF is read as LF, and up to
    /// two quotes may sit right before the closing three.
    mutating func parseMultilineString(literal: Bool) throws(TOMLError) {
        let open = pos, start = document.arena.count
        let limit = TOMLDocument.maximumStringLength
        let quote = literal ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        pos += 3
        if byte(pos) == UInt8(ascii: "\n") {
            pos += 1
        } else if byte(pos) == UInt8(ascii: "\r") {
            pos += 2
        }
        while true {
            if atEnd { throw error(.unterminatedString, at: open) }
            let b = byte(pos)
            if b == quote {
                var run = 0
                while byte(pos + run) == quote { run += 1 }
                // Three close the string; one or two more before them belong to it. More
                // than five leave quotes after the string, which the caller refuses.
                let kept = run >= 3 ? min(run - 3, 2) : run
                for _ in 0..<kept {
                    try appendStringByte(quote, start: start, limit: limit, tooLong: .stringTooLong, open: open)
                }
                pos += kept
                if run >= 3 {
                    pos += 3
                    return
                }
            } else if b == UInt8(ascii: "\\") && !literal {
                // A backslash that ends a line (blanks may follow it) drops the line end
                // and every blank and newline up to the next other character.
                var k = pos + 1
                while byte(k) == UInt8(ascii: " ") || byte(k) == UInt8(ascii: "\t") { k += 1 }
                if byte(k) == UInt8(ascii: "\n") || byte(k) == UInt8(ascii: "\r") {
                    pos = k
                    while true {
                        let c = byte(pos)
                        guard c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n")
                            || c == UInt8(ascii: "\r") else { break }
                        pos += 1
                    }
                } else {
                    try parseEscape(start: start, limit: limit, tooLong: .stringTooLong, open: open)
                }
            } else if b == UInt8(ascii: "\r") {
                try appendStringByte(UInt8(ascii: "\n"), start: start, limit: limit, tooLong: .stringTooLong, open: open)
                pos += 2
            } else {
                try appendStringByte(b, start: start, limit: limit, tooLong: .stringTooLong, open: open)
                pos += 1
            }
        }
    }

    /// One escape at `pos` (a backslash): TOML 1.0's \b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX.
    mutating func parseEscape(start: Int, limit: Int, tooLong: TOMLError.Reason, open: Int) throws(TOMLError) {
        let at = pos
        let decoded: UInt8
        switch byte(pos + 1) {
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = byte(pos + 1) == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for k in 0..<count {
                guard let d = TOMLParser.digitValue(byte(pos + 2 + k), radix: 16) else { throw error(.invalidEscape, at: at) }
                value = value << 4 | UInt32(d)
            }
            guard value < 0xD800 || (value > 0xDFFF && value <= 0x10FFFF) else { throw error(.invalidUnicodeEscape, at: at) }
            guard document.arena.count - start + UTF8Text.encodedLength(value) <= limit else { throw error(tooLong, at: open) }
            UTF8Text.append(value, to: &document.arena)
            pos += 2 + count
            return
        default:
            throw error(.invalidEscape, at: at)
        }
        try appendStringByte(decoded, start: start, limit: limit, tooLong: tooLong, open: open)
        pos += 2
    }

    // MARK: - Booleans and numbers

    static func digitValue(_ b: UInt8, radix: UInt8) -> UInt8? {
        let d: UInt8
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
        default: return nil
        }
        return d < radix ? d : nil
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// True when the value at `pos` starts like a date (`dddd-`) or a time (`dd:`).
    func startsLikeDateOrTime() -> Bool {
        let d = TOMLParser.isDigit
        if d(byte(pos)) && d(byte(pos + 1)) && byte(pos + 2) == UInt8(ascii: ":") { return true }
        return d(byte(pos)) && d(byte(pos + 1)) && d(byte(pos + 2)) && d(byte(pos + 3)) && byte(pos + 4) == UInt8(ascii: "-")
    }

    /// `true`, `false`, an integer, a float, `inf` or `nan` (signed or not). The value's
    /// bytes are the run of letters, digits, `_`, `.`, `+` and `-` at `pos`; all of it
    /// must read as one value.
    mutating func parseWordOrNumber() throws(TOMLError) -> Scalar {
        let start = pos
        if startsLikeDateOrTime() { throw error(.dateTimeUnsupported, at: start) }
        var end = pos
        while true {
            let b = byte(end)
            guard TOMLParser.isBareKeyByte(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "+") else { break }
            end += 1
        }
        pos = end
        if matches(start, end, "true") { return .boolean(true) }
        if matches(start, end, "false") { return .boolean(false) }
        let first = byte(start)
        guard TOMLParser.isDigit(first) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
            || matches(start, end, "inf") || matches(start, end, "nan") else {
            throw error(.expectedValue, at: start)
        }
        return try parseNumber(start, end)
    }

    func matches(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        var k = 0
        while k < end - start {
            if byte(start + k) != word.utf8Start[k] { return false }
            k += 1
        }
        return true
    }

    /// The number in bytes `s..<e` (a run of number-like bytes).
    mutating func parseNumber(_ s: Int, _ e: Int) throws(TOMLError) -> Scalar {
        var i = s
        let negative = byte(i) == UInt8(ascii: "-")
        let signed = negative || byte(i) == UInt8(ascii: "+")
        if signed { i += 1 }
        if matches(i, e, "inf") { return .float(negative ? -Double.infinity : Double.infinity) }
        if matches(i, e, "nan") { return .float(negative ? -Double.nan : Double.nan) }
        guard TOMLParser.isDigit(byte(i)) && i < e else { throw error(.invalidNumber, at: s) }

        // 0x, 0o, 0b: no sign, leading zeros allowed.
        if byte(i) == UInt8(ascii: "0") && i + 1 < e {
            let radix: UInt8
            switch byte(i + 1) {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: radix = 0
            }
            if radix != 0 {
                guard !signed else { throw error(.invalidNumber, at: s) }
                return .integer(try parseInteger(i + 2, e, radix: radix, negative: false, token: s))
            }
        }
        var isFloat = false
        for k in i..<e {
            let b = byte(k)
            if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { isFloat = true }
        }
        // A decimal integer, or a float's integer part: no leading zero.
        if byte(i) == UInt8(ascii: "0") && i + 1 < e && (TOMLParser.isDigit(byte(i + 1)) || byte(i + 1) == UInt8(ascii: "_")) {
            throw error(.leadingZero, at: s)
        }
        if !isFloat { return .integer(try parseInteger(i, e, radix: 10, negative: negative, token: s)) }
        return .float(try parseFloat(i, e, negative: negative, token: s))
    }

    /// The end of `DIGIT *( ["_"] DIGIT )` starting at `i` (which must hold a digit).
    func digitRun(_ i: Int, _ e: Int, radix: UInt8, token: Int) throws(TOMLError) -> Int {
        guard i < e, TOMLParser.digitValue(byte(i), radix: radix) != nil else {
            throw error(i < e && byte(i) == UInt8(ascii: "_") ? .misplacedUnderscore : .invalidNumber, at: token)
        }
        var k = i + 1
        while k < e {
            let b = byte(k)
            if TOMLParser.digitValue(b, radix: radix) != nil {
                k += 1
            } else if b == UInt8(ascii: "_") {
                guard k + 1 < e, TOMLParser.digitValue(byte(k + 1), radix: radix) != nil else {
                    throw error(.misplacedUnderscore, at: token)
                }
                k += 1
            } else {
                break
            }
        }
        return k
    }

    /// Digits (with underscores) in `radix` filling `i..<e`, as a signed 64-bit integer.
    func parseInteger(_ i: Int, _ e: Int, radix: UInt8, negative: Bool, token: Int) throws(TOMLError) -> Int64 {
        guard try digitRun(i, e, radix: radix, token: token) == e else { throw error(.invalidNumber, at: token) }
        // The magnitude may reach 2^63 only for a negative number (Int64.min).
        let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        var magnitude: UInt64 = 0
        for k in i..<e {
            guard let d = TOMLParser.digitValue(byte(k), radix: radix) else { continue }   // an underscore
            let (times, o1) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
            let (sum, o2) = times.addingReportingOverflow(UInt64(d))
            guard !o1, !o2, sum <= limit else { throw error(.integerOverflow, at: token) }
            magnitude = sum
        }
        if !negative { return Int64(magnitude) }
        return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }

    /// `int [. digits] [e|E [+|-] digits]` (at least one of the two parts) filling `i..<e`.
    mutating func parseFloat(_ i: Int, _ e: Int, negative: Bool, token: Int) throws(TOMLError) -> Double {
        let intEnd = try digitRun(i, e, radix: 10, token: token)
        var k = intEnd
        var fractionStart = k, fractionEnd = k
        if byte(k) == UInt8(ascii: ".") && k < e {
            fractionStart = k + 1
            fractionEnd = try digitRun(fractionStart, e, radix: 10, token: token)
            k = fractionEnd
        }
        var exponent = 0
        if k < e && (byte(k) == UInt8(ascii: "e") || byte(k) == UInt8(ascii: "E")) {
            k += 1
            var exponentNegative = false
            if k < e && (byte(k) == UInt8(ascii: "+") || byte(k) == UInt8(ascii: "-")) {
                exponentNegative = byte(k) == UInt8(ascii: "-")
                k += 1
            }
            let exponentEnd = try digitRun(k, e, radix: 10, token: token)
            for j in k..<exponentEnd where TOMLParser.isDigit(byte(j)) {
                // Saturates far beyond any double's range (the digits are at most 64 KiB).
                exponent = min(exponent * 10 + Int(byte(j) - UInt8(ascii: "0")), 1_000_000)
            }
            if exponentNegative { exponent = -exponent }
            k = exponentEnd
        }
        guard k == e, k > intEnd else { throw error(.invalidNumber, at: token) }

        // value = digits × 10^(exponent - fraction digits)
        digits.removeAll(keepingCapacity: true)
        var fractionDigits = 0
        for j in i..<fractionEnd {
            let b = byte(j)
            guard TOMLParser.isDigit(b) else { continue }
            if j >= fractionStart && fractionEnd > fractionStart { fractionDigits += 1 }
            digits.append(b - UInt8(ascii: "0"))
        }
        let magnitude = DecimalToDouble.convert(digits, exponent: exponent - fractionDigits)
        return negative ? -magnitude : magnitude
    }
}
