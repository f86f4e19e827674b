// Why a TOML file was refused, and where. Embedded-clean: the reason is a fixed enum
// whose message is a StaticString, and `describe` writes bytes, so reporting an error
// needs neither String interpolation nor Unicode tables.

/// A refused TOML file: the first problem found, with its position.
public struct TOMLError: Error, Equatable, Sendable {
    /// The line of the problem, 1-based (lines end at LF; a CRLF's CR belongs to its line).
    public var line: Int
    /// The column of the problem, 1-based, counted in **bytes** from the start of the line
    /// (a multi-byte UTF-8 character counts for its bytes, a tab for one). At the end of
    /// the input it is one past the last byte of the last line.
    public var column: Int
    /// The byte offset of the problem in the file (0-based; the file's size at its end).
    public var offset: Int
    /// What is wrong.
    public var reason: Reason

    public init(line: Int, column: Int, offset: Int, reason: Reason) {
        self.line = line; self.column = column; self.offset = offset; self.reason = reason
    }

    /// What is wrong with a refused file; `message` says it in one line.
    public enum Reason: UInt8, Equatable, Sendable, CaseIterable {
        /// More than ``TOMLDocument/maximumSize`` bytes.
        case fileTooLarge
        /// A byte sequence that is not well-formed UTF-8.
        case invalidUTF8
        /// A control character other than tab (TOML allows none anywhere, escape it in a string).
        case controlCharacter
        /// A carriage return not followed by a line feed.
        case bareCarriageReturn
        /// A key was expected (start of a line, after `.`, inside `[...]` or `{...}`).
        case expectedKey
        /// A key not followed by `=`.
        case expectedEquals
        /// Nothing that reads as a value after `=` or in an array.
        case expectedValue
        /// Something after a value, key/value pair or table header on its line.
        case expectedEndOfLine
        /// A table header without its closing `]` (or `]]`).
        case unterminatedHeader
        /// A string without its closing quote(s), or a single-line string that reaches the end of its line.
        case unterminatedString
        /// A backslash escape TOML 1.0 does not have.
        case invalidEscape
        /// A `\u` or `\U` escape that is not a Unicode scalar value (a surrogate, or above U+10FFFF).
        case invalidUnicodeEscape
        /// A string longer than ``TOMLDocument/maximumStringLength`` bytes (after escapes).
        case stringTooLong
        /// A key longer than ``TOMLDocument/maximumKeyLength`` bytes (after escapes).
        case keyTooLong
        /// A malformed integer or float.
        case invalidNumber
        /// A decimal integer (or a float's integer part) with a leading zero.
        case leadingZero
        /// An underscore in a number that is not between two digits.
        case misplacedUnderscore
        /// An integer outside the signed 64-bit range.
        case integerOverflow
        /// An offset date-time, local date-time, local date or local time.
        case dateTimeUnsupported
        /// An array not closed by `]` (after a value: neither `,` nor `]`).
        case unterminatedArray
        /// An inline table not closed by `}` on its line (after a pair: neither `,` nor `}`).
        case unterminatedInlineTable
        /// A comma right before an inline table's `}`.
        case trailingCommaInInlineTable
        /// A key defined twice in the same table.
        case duplicateKey
        /// A table defined twice (by `[header]`, or by a header after dotted keys defined it).
        case tableDefinedTwice
        /// A key that holds a value (string, number, boolean, array) used as a table.
        case keyIsNotATable
        /// `[header]` or dotted keys adding to an inline table.
        case inlineTableExtended
        /// `[[header]]` or `[header]` on an array written as a value (`key = [...]`).
        case staticArrayExtended
        /// `[[header]]` on a table, or `[header]` on an array of tables.
        case tableAndArrayOfTables
        /// Dotted keys adding to a table defined by a `[header]`.
        case dottedKeyIntoDefinedTable
        /// Tables, arrays and inline tables nested more than ``TOMLDocument/maximumDepth`` deep.
        case nestingTooDeep

        /// One line saying what is wrong (ASCII).
        public var message: StaticString {
            switch self {
            case .fileTooLarge: "file is larger than 64 KiB"
            case .invalidUTF8: "invalid UTF-8"
            case .controlCharacter: "control character (only tab is allowed; escape others in a basic string)"
            case .bareCarriageReturn: "carriage return not followed by a line feed"
            case .expectedKey: "expected a key"
            case .expectedEquals: "expected '=' after a key"
            case .expectedValue: "expected a value"
            case .expectedEndOfLine: "expected the end of the line"
            case .unterminatedHeader: "table header not closed by ']'"
            case .unterminatedString: "unterminated string"
            case .invalidEscape: "invalid escape sequence"
            case .invalidUnicodeEscape: "escape is not a Unicode scalar value"
            case .stringTooLong: "string longer than 4096 bytes"
            case .keyTooLong: "key longer than 256 bytes"
            case .invalidNumber: "invalid number"
            case .leadingZero: "leading zeros are not allowed"
            case .misplacedUnderscore: "an underscore in a number must be between two digits"
            case .integerOverflow: "integer does not fit in 64 bits"
            case .dateTimeUnsupported: "dates and times are not supported"
            case .unterminatedArray: "expected ',' or ']' in an array"
            case .unterminatedInlineTable: "expected ',' or '}' on the inline table's line"
            case .trailingCommaInInlineTable: "trailing comma in an inline table"
            case .duplicateKey: "duplicate key"
            case .tableDefinedTwice: "table defined twice"
            case .keyIsNotATable: "key already holds a value, not a table"
            case .inlineTableExtended: "an inline table cannot be extended"
            case .staticArrayExtended: "an array value cannot be extended by a table header"
            case .tableAndArrayOfTables: "key is both a table and an array of tables"
            case .dottedKeyIntoDefinedTable: "dotted keys cannot add to a table defined by a header"
            case .nestingTooDeep: "nested more than 32 levels deep"
            }
        }
    }

    /// Appends `FILE:LINE:COL: reason` (no newline) to `out`; `file` is the file's name
    /// as bytes, written as it is (the caller escapes it if it may hold control bytes).
    public func describe(file: [UInt8], into out: inout [UInt8]) {
        out.append(contentsOf: file)
        out.append(UInt8(ascii: ":"))
        TOMLError.appendDecimal(line, to: &out)
        out.append(UInt8(ascii: ":"))
        TOMLError.appendDecimal(column, to: &out)
        out.append(UInt8(ascii: ":"))
        out.append(UInt8(ascii: " "))
        reason.message.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal (a negative value, which positions never are, as `0`).
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var v = UInt(max(value, 0))
        var divisor: UInt = 1
        while divisor <= v / 10 { divisor *= 10 }
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(v / divisor))
            v %= divisor
            divisor /= 10
        } while divisor > 0
    }
}
