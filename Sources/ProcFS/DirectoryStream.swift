import CLibc

/// A directory kept open and listed again from its start on each pass.
///
/// Wraps `opendir(3)`, `rewinddir(3)` and `readdir(3)`: the `DIR` stream and its
/// buffer are allocated once, so listing /proc every scan allocates nothing.
/// If the directory cannot be opened, each pass tries again (one failed
/// `open`, no allocation) and lists nothing.
final class DirectoryStream {
    let path: String
    /// `path` NUL-terminated, made once (CPath.swift says why not the String conversion).
    private let pathC: [CChar]
    private var stream: OpaquePointer?

    init(_ path: String) {
        self.path = path
        pathC = cPath(path)
    }

    deinit {
        if let stream { closedir(stream) }
    }

    /// The descriptor of the open directory, for `openat(2)` relative to it; nil if not open.
    var descriptor: FileDescriptor? {
        guard let stream else { return nil }
        return FileDescriptor(rawValue: dirfd(stream))
    }

    /// Opens the directory if needed and rewinds it. Returns whether it is open.
    @discardableResult
    func rewind() -> Bool {
        if let stream {
            rewinddir(stream)
            return true
        }
        stream = opendir(pathC)
        return stream != nil
    }

    /// Lists every entry except `.` and `..`, from the start of the directory.
    ///
    /// `body` gets the entry's name (without its NUL; valid only during the call)
    /// and its `d_type` (`DT_UNKNOWN` on file systems that do not fill it in).
    /// Calls `body` for each entry but `.` and `..`; false when the directory cannot be read.
    @discardableResult
    func forEachEntry(_ body: (_ name: UnsafeRawBufferPointer, _ type: UInt8) -> Void) -> Bool {
        guard rewind(), let stream else { return false }
        let nameOffset = clibc_dirent_name_offset()
        while let entry = readdir(stream) {
            let raw = UnsafeRawPointer(entry)
            let namePointer = (raw + nameOffset).assumingMemoryBound(to: CChar.self)
            let name = UnsafeRawBufferPointer(start: namePointer, count: strlen(namePointer))
            if name.count == 1 && name[0] == 0x2E { continue }
            if name.count == 2 && name[0] == 0x2E && name[1] == 0x2E { continue }
            body(name, entry.pointee.d_type)
        }
        return true
    }
}
