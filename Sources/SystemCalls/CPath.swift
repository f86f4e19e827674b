import UTF8Text

/// A String's UTF-8 bytes copied out without the standard library's conversions.
///
/// `String.utf8CString` (and passing a String where C wants a `const char *`, which calls
/// it), `Array(string.utf8)` and `append(contentsOf: string.utf8)` each run standard-library
/// code (`utf8CString`, `ContiguousArray<CChar>` growth, `_StringGuts.copyUTF8`) that filled
/// 64 KiB windows of the sampler's code pages for a few calls at start (docs/performance-history.md,
/// "Start-up paths as bytes"). `String.withUTF8` is emitted into the caller, and the copy
/// below is our own code.

/// `string`'s UTF-8 bytes followed by a NUL, for `open(2)`, `stat(2)` and friends, with the
/// bytes a path String carries (``pathString(_:)``) given back as they were. A string with a
/// NUL inside names a shorter path, as the C string conversion did.
public func cPath(_ string: String) -> [CChar] {
    var string = string
    return string.withUTF8 { utf8 -> [CChar] in
        if ExactBytes.hasEscapes(UnsafeRawBufferPointer(utf8)) {
            let bytes = ExactBytes.decode(UnsafeRawBufferPointer(utf8))
            return [CChar](unsafeUninitializedCapacity: bytes.count + 1) { out, count in
                var i = 0
                while i < bytes.count { out[i] = CChar(bitPattern: bytes[i]); i += 1 }
                out[bytes.count] = 0
                count = bytes.count + 1
            }
        }
        return [CChar](unsafeUninitializedCapacity: utf8.count + 1) { out, count in
            var i = 0
            while i < utf8.count { out[i] = CChar(bitPattern: utf8[i]); i += 1 }
            out[utf8.count] = 0
            count = utf8.count + 1
        }
    }
}

/// `string`'s UTF-8 bytes (what `Array(string.utf8)` gives).
public func utf8Bytes(_ string: String) -> [UInt8] {
    var string = string
    return string.withUTF8 { utf8 in
        [UInt8](unsafeUninitializedCapacity: utf8.count) { out, count in
            var i = 0
            while i < utf8.count { out[i] = utf8[i]; i += 1 }
            count = utf8.count
        }
    }
}

/// Appends `string`'s UTF-8 bytes to `bytes` (what `bytes.append(contentsOf: string.utf8)` does).
public func appendUTF8(_ string: String, to bytes: inout [UInt8]) {
    var string = string
    string.withUTF8 { utf8 in
        bytes.reserveCapacity(bytes.count + utf8.count)
        var i = 0
        while i < utf8.count { bytes.append(utf8[i]); i += 1 }
    }
}

/// A path's bytes (an argument, an environment variable, a link's target) as a String that
/// keeps every one of them: valid UTF-8 as it is, any other byte carried as an escape scalar
/// (``ExactBytes``), which ``cPath(_:)`` and ``pathBytes(_:)`` give back, and
/// `TerminalText.escape` shows as `\xNN`. `String(decoding:as:)` would repair such a byte
/// into U+FFFD, and the program would open another file.
public func pathString(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: ExactBytes.encode(bytes), as: UTF8.self)
}

/// ``pathString(_:)`` of an array's bytes.
public func pathString(bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { pathString($0) }
}

/// The bytes a path String names: its UTF-8 with each carried byte given back
/// (``pathString(_:)``), for a system call or a comparison with what the kernel lists.
public func pathBytes(_ string: String) -> [UInt8] {
    var string = string
    return string.withUTF8 { ExactBytes.decode(UnsafeRawBufferPointer($0)) }
}
