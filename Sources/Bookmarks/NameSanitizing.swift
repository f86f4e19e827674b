// Friendly names come from files shared between machines: hostile until cleaned.

extension BookmarkFile {
    /// A friendly name made safe to store and show, the way SnapshotCodec's NameSanitizer
    /// treats process names: invalid UTF-8 becomes U+FFFD; tab, newline and carriage return
    /// become a space; other C0 controls, DEL and C1 controls become `?`; spaces at either
    /// end are trimmed; at most ``maximumNameLength`` bytes, cut on a character boundary.
    /// Markup and quotes are kept as text: every renderer escapes for its own format.
    /// Unlike process names, an empty result stays empty ("show the process's own name").
    public static func sanitizeName(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(raw.count, maximumNameLength))
        raw.withUnsafeBytes { bytes in
            var i = 0
            while i < bytes.count {
                let length = UTF8Bytes.sequenceLength(bytes, at: i)
                var piece: [UInt8]
                if length == 0 {
                    piece = [0xEF, 0xBF, 0xBD]                        // U+FFFD
                    i += 1
                } else if length == 1 {
                    let byte = bytes[i]
                    piece = [byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20
                             : UTF8Bytes.isControl(byte) ? 0x3F : byte]
                    i += 1
                } else {
                    piece = UTF8Bytes.isC1Control(bytes, at: i) ? [0x3F] : Array(bytes[i..<(i + length)])
                    i += length
                }
                if piece == [0x20] && out.isEmpty { continue }       // leading space
                if out.count + piece.count > maximumNameLength { break }
                out.append(contentsOf: piece)
            }
        }
        while let last = out.last, last == 0x20 { out.removeLast() }
        return out
    }
}
