// Writing TOML: the keys and basic strings the config importers write (i3blocks' and the
// other bars'), one escaping for both, so that what they write is what the reader takes.

/// Appends `key` bare where TOML allows it (`A-Za-z0-9_-`), else as a basic string.
public func appendTOMLKey<Bytes: Collection>(_ key: Bytes, to text: inout [UInt8]) where Bytes.Element == UInt8 {
    let bare = !key.isEmpty && key.allSatisfy { b in
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }
    if bare { text.append(contentsOf: key) } else { appendTOMLString(key, to: &text) }
}

/// Appends `value` as a TOML basic string: `"` and `\` escaped, a line feed, tab and
/// carriage return by their letters, any other control byte as `\u00XX`.
public func appendTOMLString<Bytes: Sequence>(_ value: Bytes, to text: inout [UInt8]) where Bytes.Element == UInt8 {
    text.append(UInt8(ascii: "\""))
    for b in value {
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(UInt8(ascii: "\\")); text.append(b)
        case 0x0A: text.append(UInt8(ascii: "\\")); text.append(UInt8(ascii: "n"))
        case 0x09: text.append(UInt8(ascii: "\\")); text.append(UInt8(ascii: "t"))
        case 0x0D: text.append(UInt8(ascii: "\\")); text.append(UInt8(ascii: "r"))
        case 0..<0x20, 0x7F:
            let hex: StaticString = "0123456789ABCDEF"
            text.append(UInt8(ascii: "\\")); text.append(UInt8(ascii: "u")); text.append(0x30); text.append(0x30)
            text.append(hex.utf8Start[Int(b >> 4)]); text.append(hex.utf8Start[Int(b & 0x0F)])
        default: text.append(b)
        }
    }
    text.append(UInt8(ascii: "\""))
}
