extension StringProtocol {
    /// Whether `other` occurs in it, byte for byte. The standard library's `contains(_:)` for
    /// a string is _StringProcessing's, and with it comes its regex engine (_RegexParser):
    /// about 0.9 MB of the CLI for the few words an import looks for.
    func contains(_ other: String) -> Bool {
        let needle = Array(other.utf8)
        guard !needle.isEmpty else { return true }
        let text = Array(utf8)
        guard text.count >= needle.count else { return false }
        for start in 0...(text.count - needle.count) {
            var i = 0
            while i < needle.count && text[start + i] == needle[i] { i += 1 }
            if i == needle.count { return true }
        }
        return false
    }
}
