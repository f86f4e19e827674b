// Turns a raw process name (from /proc/PID/comm or cmdline: any bytes at all)
// into a display-ready one. Works on UTF-8 bytes only: no String, no
// grapheme breaking, nothing allocated once `out` has capacity.

import UTF8Text

public enum NameSanitizer {
    /// Replaces the contents of `out` with a display-ready version of `raw`:
    ///
    /// - valid UTF-8: each maximal invalid subsequence (bad lead byte, missing
    ///   continuation, overlong form, surrogate, above U+10FFFF) becomes U+FFFD,
    ///   as Swift's and the Unicode standard's "maximal subpart" practice;
    /// - tab, newline and carriage return become a space; other C0 controls,
    ///   DEL and the C1 controls U+0080...U+009F become `?`;
    /// - leading and trailing spaces are trimmed;
    /// - at most ``Snapshot/maximumNameLength`` bytes, cut on a character boundary;
    /// - an empty result becomes `?`.
    ///
    /// Quotes, backslashes and markup are kept: escaping is each renderer's job.
    public static func sanitize<Bytes: Collection<UInt8>>(_ raw: Bytes, into out: inout [UInt8]) {
        let done: Void? = raw.withContiguousStorageIfAvailable { sanitize(UnsafeRawBufferPointer($0), into: &out) }
        if done == nil {
            let copy = Array(raw)
            copy.withUnsafeBytes { sanitize($0, into: &out) }
        }
    }

    /// The same over raw bytes. Not generic, so it allocates nothing once `out`
    /// has capacity, whether or not the caller's build specializes generics.
    public static func sanitize(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        let limit = Snapshot.maximumNameLength
        var i = raw.startIndex
        while i != raw.endIndex {
            let decoded = UTF8Text.decode(raw, at: i)
            i += decoded.length
            let scalar = decoded.value
            let mapped: UInt32
            switch scalar {
            case 0x09, 0x0A, 0x0D: mapped = 0x20
            case 0x00..<0x20, 0x7F, 0x80...0x9F: mapped = 0x3F   // "?"
            default: mapped = scalar
            }
            if mapped == 0x20 && out.isEmpty { continue }       // leading space
            if out.count + UTF8Text.encodedLength(mapped) > limit { break }
            UTF8Text.append(mapped, to: &out)
        }
        // Indexing, not `out.last`: the generic `last` allocates in unoptimized builds.
        while !out.isEmpty && out[out.count - 1] == 0x20 { out.removeLast() }
        if out.isEmpty { out.append(0x3F) }
    }
}
