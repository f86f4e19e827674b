/// A String's UTF-8 bytes copied out without the standard library's conversions.
///
/// `String.utf8CString` (and passing a String where C wants a `const char *`, which calls
/// it), `Array(string.utf8)` and `append(contentsOf: string.utf8)` each run standard-library
/// code (`utf8CString`, `ContiguousArray<CChar>` growth, `_StringGuts.copyUTF8`) that filled
/// 64 KiB windows of the sampler's code pages for a few calls at start (docs/performance-history.md,
/// "Start-up paths as bytes"). `String.withUTF8` is emitted into the caller, and the copy
/// below is our own code.

/// `string`'s UTF-8 bytes followed by a NUL, for `open(2)`, `stat(2)` and friends. A string
/// with a NUL inside names a shorter path, as the C string conversion did.
public func cPath(_ string: String) -> [CChar] {
    var string = string
    return string.withUTF8 { utf8 in
        [CChar](unsafeUninitializedCapacity: utf8.count + 1) { out, count in
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
