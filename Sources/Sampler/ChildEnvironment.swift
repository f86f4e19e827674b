import CLibc

/// The environment the sampler's children (the history writer, the NVIDIA helper) start
/// with: the sampler's own, but LD_LIBRARY_PATH keeps only its absolute entries. Both children
/// are dynamic programs (libsqlite3, libnvidia-ml.so.1), and the dynamic loader takes an
/// empty entry (the common `:/usr/local/cuda/lib64`) as the current folder and a relative one
/// from it: a library another user planted there would run as the sampler's user, at every
/// start. The sampler leaves its start folder too (``StartFolder``); this holds wherever a
/// child starts.
///
/// LD_PRELOAD is left as it is: it names the libraries to load, which is the user's own
/// choice, and a relative name in it is looked up through the (cleaned) library path or,
/// with a slash, from `/`, which only root can write.
enum ChildEnvironment {
    /// A StaticString, not `Array("…".utf8)`: that copy's code would stay resident in the
    /// sampler for this one use (docs/performance-history.md).
    static let libraryPathName: StaticString = "LD_LIBRARY_PATH="

    /// `value` (LD_LIBRARY_PATH's) with only the entries that start at the root, in their
    /// order, joined by `:`; nil when none is left. The loader splits the list at `:` and at
    /// `;` (ld.so(8)), so both separate entries here.
    static func absoluteLibraryPath<Bytes: Collection<UInt8>>(_ value: Bytes) -> [UInt8]? {
        var kept: [UInt8] = []
        var entry: [UInt8] = []
        func finish() {
            if entry.first == UInt8(ascii: "/") {
                if !kept.isEmpty { kept.append(UInt8(ascii: ":")) }
                kept.append(contentsOf: entry)
            }
            entry.removeAll(keepingCapacity: true)
        }
        for byte in value {
            if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") { finish() } else { entry.append(byte) }
        }
        finish()
        return kept.isEmpty ? nil : kept
    }

    /// `environment` (each entry `NAME=VALUE`) with LD_LIBRARY_PATH's value cleaned by
    /// ``absoluteLibraryPath(_:)``, or dropped when nothing is left; every other entry as it is.
    static func filtered(_ environment: [[UInt8]]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        result.reserveCapacity(environment.count)
        let n = libraryPathName.utf8CodeUnitCount
        for entry in environment {
            guard isLibraryPath(entry) else { result.append(entry); continue }
            if let value = absoluteLibraryPath(entry[n...]) {
                var cleaned = Array(entry[0..<n])
                cleaned.append(contentsOf: value)
                result.append(cleaned)
            }
        }
        return result
    }

    /// Whether `entry` is LD_LIBRARY_PATH's (`LD_LIBRARY_PATH=…`).
    static func isLibraryPath(_ entry: [UInt8]) -> Bool {
        let n = libraryPathName.utf8CodeUnitCount
        guard entry.count >= n else { return false }
        for i in 0..<n where entry[i] != libraryPathName.utf8Start[i] { return false }
        return true
    }

    /// Calls `body` with this process's environment, ``filtered(_:)``, as the NULL-terminated
    /// array of C strings posix_spawn takes (valid only during the call).
    static func withFiltered<R>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var current: [[UInt8]] = []
        if var p = clibc_environ() {
            while let entry = p.pointee {
                current.append(Array(UnsafeRawBufferPointer(start: entry, count: strlen(entry))))
                p += 1
            }
        }
        let entries = filtered(current)
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: entries.count + 1)
        for (i, entry) in entries.enumerated() {
            let c = UnsafeMutablePointer<CChar>.allocate(capacity: entry.count + 1)
            for k in 0..<entry.count { c[k] = CChar(bitPattern: entry[k]) }
            c[entry.count] = 0
            pointers[i] = c
        }
        pointers[entries.count] = nil
        defer {
            for i in 0..<entries.count { pointers[i]?.deallocate() }
            pointers.deallocate()
        }
        return body(pointers)
    }
}
