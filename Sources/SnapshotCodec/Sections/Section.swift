// Format v3: after the 32-byte header, the body is a run of sections, each
//     u16 tag, u16 version, u32 length, then `length` bytes of payload.
// A reader skips a tag it does not know, reads the fields it knows from the start of a
// payload and ignores the rest (a newer version of a section only appends fields), and
// treats a section that fails its own bounds checks as not available. One file per
// section of a layout of its own in this folder (the others are made from their parts'
// tables, Parts/); SectionList.swift names them all.

extension ByteReader where Failure == SnapshotDecodeError {
    /// A u8 count (at most `maximum`) and that many entries, each read by `entry` into an
    /// element of `array` — the existing ones reused (their arrays keep their capacity),
    /// `empty` appended when there are more.
    @inline(__always)
    mutating func list<T>(into array: inout [T], maximum: Int, empty: T,
                          _ entry: (inout SnapshotReader, inout T) throws(SnapshotDecodeError) -> Void) throws(SnapshotDecodeError) {
        let count = Int(try u8())
        guard count <= maximum else { throw .malformed(.countOverLimit) }
        if array.count > count { array.removeLast(array.count - count) }
        for i in 0..<count {
            if i == array.count { array.append(empty) }
            try entry(&self, &array[i])
        }
    }
}

/// Bytes in a section's header: tag, version, length.
public let sectionHeaderLength = 8
