// The command line's words as the kernel gave them, for the values that name files.
#if canImport(Glibc)
import Glibc
#endif
import ProcFS

/// ArgumentParser takes `CommandLine.arguments`, Strings in which every byte that is not
/// UTF-8 was repaired into U+FFFD: `--runtime-dir` naming a folder called `\xff` would read
/// a folder called U+FFFD. The parser is vendored as upstream wrote it (VendoredParserTests),
/// so the values it gives are mapped back here: a value holding U+FFFD is looked up among
/// the raw words (each whole, and the part after `=` of `--name=value`), and the one word
/// that repairs to it gives its bytes, carried in the String (ProcFS's `pathString`) that
/// `cPath` turns back into them at the system call.
///
/// Two different words that repair to the same value cannot be told apart: the value is
/// then left as the parser gave it (the file it names is most likely missing, and says so).
enum ExactArguments {
    /// `value` as the bytes the user typed, when those were not UTF-8; else `value`.
    static func path(_ value: String) -> String {
        guard value.unicodeScalars.contains("\u{FFFD}") else { return value }
        var found: String?
        for word in rawWords() {
            for candidate in candidates(word) where String(decoding: candidate, as: UTF8.self) == value {
                let exact = pathString(bytes: candidate)
                if let found, found != exact { return value }
                found = exact
            }
        }
        return found ?? value
    }

    /// ``path(_:)`` of an optional value.
    static func path(_ value: String?) -> String? { value.map { path($0) } }

    /// The words of a command to run (`measure -- COMMAND ARGS`), which end the command line:
    /// the last `words.count` raw words when they repair to `words`, each carried exactly;
    /// else `words`. By position, not by lookup: linear in the number of words, which a link
    /// line makes large.
    static func tail(_ words: [String]) -> [String] {
        guard words.contains(where: { $0.unicodeScalars.contains("\u{FFFD}") }) else { return words }
        let raw = rawWords()
        guard raw.count >= words.count else { return words }
        let tail = raw[(raw.count - words.count)...]
        var exact: [String] = []
        exact.reserveCapacity(words.count)
        for (word, bytes) in zip(words, tail) {
            guard String(decoding: bytes, as: UTF8.self) == word else { return words }
            exact.append(pathString(bytes: bytes))
        }
        return exact
    }

    /// A raw word's possible values: the word, and for `--name=value` the value.
    static func candidates(_ word: [UInt8]) -> [[UInt8]] {
        guard word.count > 2, word[0] == UInt8(ascii: "-"), word[1] == UInt8(ascii: "-"),
              let equals = word.firstIndex(of: UInt8(ascii: "=")) else { return [word] }
        return [word, Array(word[(equals + 1)...])]
    }

    /// The program's arguments after its name, as bytes.
    static func rawWords() -> [[UInt8]] {
        let argv = CommandLine.unsafeArgv
        var words: [[UInt8]] = []
        var i = 1
        while i < Int(CommandLine.argc), let p = argv[i] {
            words.append(Array(UnsafeRawBufferPointer(start: p, count: strlen(p))))
            i += 1
        }
        return words
    }
}
