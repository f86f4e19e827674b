// Fuzz target `bookmarks`: bytes → BookmarkFile.parse, as `sysstats bookmarks import`
// reads a file from anywhere and the sampler reads its rules cache.
//
// Properties:
// - parsing never traps; a refused file gets a one-line message (no control bytes);
// - an accepted file holds at most maximumRules valid rules, with sanitized names;
// - round trip: encoded (with and without source=), parsed again: the same rules (the
//   plain form reads back as imported), nothing left to sanitize, and the encoding is
//   canonical (encode ∘ parse ∘ encode = encode);
// - resolving: the resolver keeps every rule, in precedence order (by source, file order
//   within a source); a fixed set of process names resolves without trapping, a match
//   names a rule and shows its friendly name (or a non-empty process name when it has
//   none); and a process built to fit a rule (comm, executable and command line all its
//   pattern) is matched by that rule or one before it.

import Bookmarks

let processes: [(comm: String, executable: String, commandLine: String)] = [
    ("firefox", "/usr/lib/firefox/firefox", "/usr/lib/firefox/firefox -P default"),
    ("Isolated Web Co", "/usr/lib/firefox/firefox", "/usr/lib/firefox/firefox -contentproc -isForBrowser 12 tab"),
    ("Web Content~2", "firefox", "firefox"),
    ("kworker/0:1H", "", ""),
    ("python3.11", "/usr/bin/python3.11 (deleted)", "python3 -m http.server 8000"),
    ("chrome", "/opt/google/chrome/chrome", "/opt/google/chrome/chrome --type=renderer --lang=en-US"),
    ("emacs-29.1", "/usr/bin/emacs-29.1", "emacs --daemon"),
    ("", "", ""),
    ("x", "/", " "),
]

func checkOneLineMessage(_ error: BookmarkFileError) {
    let message = Array(error.message(file: "fuzz.sysstats-bookmarks").utf8)
    expect(!message.contains(where: { $0 < 0x20 || $0 == 0x7F }), "the error message is not one clean line", message)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBookmarks(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let file: BookmarkFile
    do throws(BookmarkFileError) {
        file = try BookmarkFile.parse(input)
    } catch {
        checkOneLineMessage(error)
        return 0
    }
    let rules = file.rules
    expect(rules.count <= BookmarkFile.maximumRules, "\(rules.count) rules")
    for rule in rules {
        expect(BookmarkFile.sanitizeName(rule.friendlyName) == rule.friendlyName, "a name left unsanitized", rule.friendlyName)
        expect(rule.friendlyName.count <= BookmarkFile.maximumNameLength, "a name over the limit", rule.friendlyName)
        do throws(BookmarkRuleProblem) { try rule.validate() } catch {
            fuzzFail("an accepted rule does not validate: \(error.message)", rule.pattern)
        }
    }

    let encoded = BookmarkFile.encode(rules, withSource: true)
    guard let again = try? BookmarkFile.parse(encoded) else { fuzzFail("the encoded rules do not parse", encoded) }
    expect(again.rules == rules, "the encoded rules parse to other rules", encoded)
    expect(again.sanitizedNames == 0, "the encoded rules have names to sanitize", encoded)
    expect(BookmarkFile.encode(again.rules, withSource: true) == encoded, "the encoding is not canonical", encoded)
    let plain = BookmarkFile.encode(rules)
    guard let plainAgain = try? BookmarkFile.parse(plain) else { fuzzFail("the plain encoding does not parse", plain) }
    expect(plainAgain.rules == rules.map { var r = $0; r.source = .imported; return r },
           "the plain encoding parses to other rules", plain)

    let resolver = NameResolver(rules: rules)
    let ordered = resolver.rules
    expect(ordered == RuleSource.allCases.flatMap { s in rules.filter { $0.source == s } },
           "the resolver's rules are not in precedence order")
    func resolve(_ comm: [UInt8], _ executable: [UInt8], _ commandLine: [UInt8]) -> Int? {
        var out: [UInt8] = []
        let found = comm.withUnsafeBytes { c in
            executable.withUnsafeBytes { e in
                commandLine.withUnsafeBytes { l in resolver.resolveRule(comm: c, executable: e, commandLine: l, into: &out) }
            }
        }
        guard let found else {
            expect(out.isEmpty, "no rule matched but a name was written", out)
            return nil
        }
        expect(found.index >= 0 && found.index < ordered.count, "matched rule \(found.index) of \(ordered.count)")
        if found.fixedName {
            expect(out == ordered[found.index].friendlyName, "the name shown is not the rule's friendly name", out)
        } else {
            expect(!out.isEmpty && ordered[found.index].friendlyName.isEmpty, "a rule without a friendly name showed nothing")
        }
        return found.index
    }
    for p in processes { _ = resolve(Array(p.comm.utf8), Array(p.executable.utf8), Array(p.commandLine.utf8)) }
    for (index, rule) in ordered.enumerated().prefix(32) where rule.strip == .none {
        let p = rule.pattern
        switch rule.kind {
        case .glob: continue
        case .executable where p.contains(UInt8(ascii: "/")) || p.count > 10 && p.suffix(10).elementsEqual(" (deleted)".utf8):
            continue
        default:
            guard let matched = resolve(p, p, p) else { fuzzFail("rule \(index) does not match its own pattern", p) }
            expect(matched <= index, "rule \(index) lost to the later rule \(matched)", p)
        }
    }
    return 0
}
