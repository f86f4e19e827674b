/// A renderer's `wants/<pid>` file in the runtime directory: the parts of the snapshot it
/// shows, as the decimal value of their ``SnapshotSections`` bits and a newline (written by
/// `sysstats-bar`, read by the sampler; docs/snapshot-format.md, "What renderers show").
extension SnapshotSections {
    /// The longest file the sampler reads.
    public static let wantsFileMaximumSize = 32

    /// The parts a wants file names: one to ten decimal digits, then optionally one newline,
    /// nothing else; a value over `UInt32.max` is refused. Bits this version does not know
    /// are dropped. Nil for anything else.
    public init?(wantsFile text: UnsafeRawBufferPointer) {
        guard !text.isEmpty, text.count <= SnapshotSections.wantsFileMaximumSize else { return nil }
        var end = text.count
        if text[end - 1] == 0x0A { end -= 1 }
        guard end > 0, end <= 10 else { return nil }
        var value: UInt64 = 0
        for i in 0..<end {
            let b = text[i]
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value * 10 + UInt64(b - 0x30)
        }
        guard value <= UInt64(UInt32.max) else { return nil }
        self = SnapshotSections(rawValue: UInt32(value)).intersection(.all)
    }

    /// The file's text for these parts, as sysstats-bar writes it: decimal, then a newline.
    public var wantsFileText: [UInt8] {
        var digits: [UInt8] = []
        var v = rawValue
        repeat {
            digits.append(0x30 + UInt8(v % 10))
            v /= 10
        } while v > 0
        var text: [UInt8] = []
        var i = digits.count
        while i > 0 { i -= 1; text.append(digits[i]) }
        text.append(0x0A)
        return text
    }
}
