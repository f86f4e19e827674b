// Well-formed Pango markup, as GMarkup (what Pango parses markup with) wants it, and a
// little stricter where our output never needs the slack: tags from a short list,
// without attributes, balanced and properly nested; `&` only as one of the five XML
// entities or a character reference to a valid, non-NUL scalar; no raw `>` in text;
// well-formed UTF-8.

/// The tags a markup text may use (the renderer writes `<b>` in genmon's tooltip only).
let pangoTags: [[UInt8]] = ["b", "i", "u", "s", "tt", "big", "small", "sub", "sup"].map { Array($0.utf8) }

/// nil when `text` is well-formed markup, else why it is not.
func pangoProblem(_ text: [UInt8]) -> String? {
    guard isValidUTF8(text) else { return "ill-formed UTF-8" }
    var open: [[UInt8]] = []
    var i = 0
    let n = text.count
    while i < n {
        let c = text[i]
        if c == UInt8(ascii: "<") {
            var j = i + 1
            let closing = j < n && text[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            let nameStart = j
            while j < n && text[j] != UInt8(ascii: ">") { j += 1 }
            guard j < n else { return "'<' without '>' at \(i)" }
            let name = Array(text[nameStart..<j])
            guard pangoTags.contains(name) else { return "unknown tag '\(printable(name))' at \(i)" }
            if closing {
                guard open.last == name else { return "'</\(printable(name))>' closes nothing open at \(i)" }
                open.removeLast()
            } else {
                open.append(name)
            }
            i = j + 1
        } else if c == UInt8(ascii: "&") {
            var j = i + 1
            while j < n && j - i <= 12 && text[j] != UInt8(ascii: ";") { j += 1 }
            guard j < n, text[j] == UInt8(ascii: ";") else { return "'&' not starting an entity at \(i)" }
            let body = Array(text[(i + 1)..<j])
            guard isKnownEntity(body) else { return "unknown entity '&\(printable(body));' at \(i)" }
            i = j + 1
        } else if c == UInt8(ascii: ">") {
            return "raw '>' at \(i)"
        } else {
            i += 1
        }
    }
    guard open.isEmpty else { return "tag '\(printable(open.last!))' left open" }
    return nil
}

/// amp, lt, gt, quot, apos, or `#N` / `#xH` naming a scalar that is not NUL or a surrogate.
func isKnownEntity(_ body: [UInt8]) -> Bool {
    for name in ["amp", "lt", "gt", "quot", "apos"] where body == Array(name.utf8) { return true }
    guard body.count >= 2, body[0] == UInt8(ascii: "#") else { return false }
    var value: UInt32 = 0
    let hex = body[1] == UInt8(ascii: "x")
    let digits = body[(hex ? 2 : 1)...]
    guard !digits.isEmpty, digits.count <= 8 else { return false }
    for d in digits {
        let v: UInt32
        switch d {
        case 0x30...0x39: v = UInt32(d - 0x30)
        case 0x41...0x46 where hex: v = UInt32(d - 0x41 + 10)
        case 0x61...0x66 where hex: v = UInt32(d - 0x61 + 10)
        default: return false
        }
        value = value * (hex ? 16 : 10) + v
    }
    return value != 0 && value <= 0x10FFFF && !(0xD800...0xDFFF).contains(value)
}
