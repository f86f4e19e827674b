// Turning what /proc says about a process into names for people. These run
// only when a process is first seen, so they may allocate the arrays they return.

/// The bytes of `/proc/PID/cmdline` as one line: trailing NULs dropped, the
/// NULs between arguments turned into spaces. Other bytes are kept as they are.
func commandLine(fromRaw raw: UnsafeRawBufferPointer) -> [UInt8] {
    var end = raw.count
    while end > 0 && raw[end - 1] == 0 { end -= 1 }
    var line = [UInt8](repeating: 0, count: end)
    for i in 0..<end { line[i] = raw[i] == 0 ? 0x20 : raw[i] }
    return line
}

/// argv[0] of a raw `/proc/PID/cmdline`: the bytes up to the first NUL.
func firstArgument(ofRaw raw: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    let end = firstIndex(of: 0, in: raw) ?? raw.count
    return UnsafeRawBufferPointer(rebasing: raw[0..<end])
}

/// The bytes after the last `/` (all of them when there is none).
func baseName(_ path: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    guard let slash = lastIndex(of: 0x2F, in: path) else { return path }
    return UnsafeRawBufferPointer(rebasing: path[(slash + 1)...])
}

/// The basename of a `/proc/PID/exe` link target, without the ` (deleted)` the
/// kernel appends when the executable was replaced or removed.
func executableName(fromLink target: UnsafeRawBufferPointer) -> [UInt8] {
    var path = target
    let suffix: StaticString = " (deleted)"
    let n = suffix.utf8CodeUnitCount
    if path.count > n, bytesEqual(UnsafeRawBufferPointer(rebasing: path[(path.count - n)...]), suffix) {
        path = UnsafeRawBufferPointer(rebasing: path[0..<(path.count - n)])
    }
    return Array(baseName(path))
}

/// The kernel keeps at most 15 bytes of a task's name (TASK_COMM_LEN − 1).
let truncatedCommLength = 15

/// The best name for a person: `comm`, unless `comm` is exactly 15 bytes (the
/// kernel truncated it) and a prefix of the executable's basename or of
/// argv[0]'s basename; then that longer basename, the executable's first.
func bestName(comm: [UInt8], executable: [UInt8], firstArgumentBase: UnsafeRawBufferPointer) -> [UInt8] {
    guard comm.count == truncatedCommLength else { return comm }
    if executable.count > comm.count, executable.starts(with: comm) { return executable }
    if firstArgumentBase.count > comm.count, firstArgumentBase.starts(with: comm) { return Array(firstArgumentBase) }
    return comm
}
