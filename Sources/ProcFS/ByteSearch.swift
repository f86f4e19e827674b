// Finding one byte in a buffer with a plain loop. The generic Collection
// methods (`firstIndex(of:)`, `lastIndex(of:)`) allocate on every call when the
// compiler does not specialize them (debug builds); these never do.

/// The index of the first `byte` in `bytes`, or nil.
@inline(__always)
func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    var i = 0
    while i < bytes.count {
        if bytes[i] == byte { return i }
        i += 1
    }
    return nil
}

/// The index of the last `byte` in `bytes`, or nil.
@inline(__always)
func lastIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    var i = bytes.count - 1
    while i >= 0 {
        if bytes[i] == byte { return i }
        i -= 1
    }
    return nil
}
