import CLibc

/// The program `name` in the directory of `/proc/self/exe`'s target (the history writer,
/// the GPU helper: installed beside the sampler); nil when that cannot be read.
public func programBesideThisOne(_ name: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    // Over bytes: String indices (`path[...slash]`) ran the standard library's
    // grapheme-alignment code, three 64 KiB windows of code pages for this one call.
    var bytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
    bytes.removeSubrange((slash + 1)...)
    appendUTF8(name, to: &bytes)  // not `append(contentsOf: _.utf8)`: see appendUTF8
    // Installed under a folder whose name is not UTF-8, the programs are still found.
    return pathString(bytes: bytes)
}
