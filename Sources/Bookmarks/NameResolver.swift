// Resolves a process's friendly name from a set of rules. Built once per rule
// change; resolving allocates nothing once `out` has capacity.

/// The rules the sampler and the CLI resolve names with, in precedence order.
public struct NameResolver: Sendable {
    /// The rules, sorted by source (user, imported, builtin); within a source, in
    /// the order given. The first matching rule wins.
    public private(set) var rules: [BookmarkRule]
    /// `rules` flattened for matching (RuleMatching.swift).
    let compiled: [CompiledRule]
    /// Every pattern and friendly name, back to back; `compiled` points into it.
    let storage: [UInt8]

    public init(rules: [BookmarkRule]) {
        // Stable sort by source: equal sources keep their order.
        var indexed: [(Int, BookmarkRule)] = []
        indexed.reserveCapacity(rules.count)
        for (i, r) in rules.enumerated() { indexed.append((i, r)) }
        indexed.sort { $0.1.source != $1.1.source ? $0.1.source < $1.1.source : $0.0 < $1.0 }
        self.rules = indexed.map { $0.1 }
        (compiled, storage) = NameResolver.compile(self.rules)
    }

    /// The built-in defaults only (no database, no rules cache).
    public static var builtin: NameResolver { NameResolver(rules: BuiltinBookmarks.rules) }

    /// Writes the friendly name of a process into `out` and returns true, or returns
    /// false (and leaves `out` empty) when no rule matches.
    ///
    /// - Parameters:
    ///   - comm: `/proc/PID/comm` as the kernel has it (≤ 15 bytes).
    ///   - executable: the executable's basename (empty when unknown). A path is cut to
    ///     its basename, and a trailing ` (deleted)` (a replaced executable) is ignored.
    ///   - commandLine: the command line, arguments joined by spaces (empty for kernel threads).
    public func resolve(comm: UnsafeRawBufferPointer, executable: UnsafeRawBufferPointer,
                        commandLine: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        return match(comm: comm, executable: executable, commandLine: commandLine, into: &out)
    }

    /// The same over arrays (the CLI and tests).
    public func resolve(comm: [UInt8], executable: [UInt8], commandLine: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        let found = comm.withUnsafeBytes { c in
            executable.withUnsafeBytes { e in
                commandLine.withUnsafeBytes { l in resolve(comm: c, executable: e, commandLine: l, into: &out) }
            }
        }
        return found ? out : nil
    }
}
