// A config file's mistake as the bar shows it: short enough that, beside the default blocks,
// i3bar need not fall back to every block's short text (it does when the line is too wide),
// and still saying where: `config.toml:27:12: reason…`. The whole message goes to stderr and
// `sysstats config check` prints it too.

/// The bar's notice for `message` (`PATH:LINE:COL: reason` or `PATH: reason`, as
/// ``ConfigError/describe(file:into:)`` and the loader write it) about the file at `path`:
/// the path shortened to its last component, the whole cut at ``maximumConfigNoticeLength``
/// bytes on a character boundary, with `…` when cut.
public func configNotice(_ message: [UInt8], path: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var rest = message[...]
    if message.starts(with: path) {
        let name = path.lastIndex(of: UInt8(ascii: "/")).map { path[(path.index(after: $0))...] } ?? path[...]
        out.append(contentsOf: name)
        rest = message[path.count...]
    } else if message.first == UInt8(ascii: "/"), let colon = message.firstIndex(of: UInt8(ascii: ":")) {
        // Another file's problem (an i3blocks file the config names): its name too.
        let file = message[..<colon]
        if let slash = file.lastIndex(of: UInt8(ascii: "/")) { out.append(contentsOf: file[(slash + 1)...]) }
        rest = message[colon...]
    }
    out.append(contentsOf: rest)
    guard out.count > maximumConfigNoticeLength else { return out }
    let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
    let keep = utf8PrefixLength(out, maximum: maximumConfigNoticeLength - ellipsis.count)
    out.removeSubrange(keep...)
    out.append(contentsOf: ellipsis)
    return out
}

/// The longest notice, bytes: about 56 characters of a bar font.
public let maximumConfigNoticeLength = 64
