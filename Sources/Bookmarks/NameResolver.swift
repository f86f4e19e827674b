// Resolves a process's friendly name from a set of rules. Built once per rule
// change; resolving allocates nothing once `out` has capacity.

/// The rules the sampler and the CLI resolve names with, in precedence order.
public struct NameResolver: Sendable {
    /// The rules flattened for matching (RuleMatching.swift), sorted by source (user,
    /// imported, builtin); within a source, in the order given. The first matching rule wins.
    let compiled: [CompiledRule]
    /// Every pattern and friendly name, back to back; `compiled` points into it. The
    /// resolver keeps only this compact form, not the rules' own arrays (two heap
    /// blocks per rule): the sampler holds a resolver for as long as it runs.
    let storage: [UInt8]

    public init(rules: [BookmarkRule]) {
        (compiled, storage) = NameResolver.compile(rules)
    }

    /// The rules in precedence order (rebuilt from the compact form: for the CLI, not a hot path).
    public var rules: [BookmarkRule] {
        var out: [BookmarkRule] = []
        out.reserveCapacity(compiled.count)
        for rule in compiled {
            out.append(BookmarkRule(kind: rule.kind, pattern: Array(storage[rule.pattern]),
                                    friendlyName: Array(storage[rule.name]), strip: rule.strip, source: rule.source))
        }
        return out
    }

    /// How many rules there are: a matched rule's index (``resolveRule(comm:executable:commandLine:into:)``)
    /// is below this.
    public var ruleCount: Int { compiled.count }

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
        resolveRule(comm: comm, executable: executable, commandLine: commandLine, into: &out) != nil
    }

    /// Like ``resolve(comm:executable:commandLine:into:)``, and says which rule matched: its
    /// index in ``rules``, and whether the name written is the rule's own friendly name (the
    /// same for every process the rule matches, so a caller can share one copy of it per
    /// rule) rather than the process's name with the suffix stripped. nil when no rule matches.
    public func resolveRule(comm: UnsafeRawBufferPointer, executable: UnsafeRawBufferPointer,
                            commandLine: UnsafeRawBufferPointer,
                            into out: inout [UInt8]) -> (index: Int, fixedName: Bool)? {
        var outOfBudget = false
        return resolveRule(comm: comm, executable: executable, commandLine: commandLine, into: &out,
                           outOfBudget: &outOfBudget)
    }

    /// Like ``resolveRule(comm:executable:commandLine:into:)``, and sets `outOfBudget` when
    /// the rules took too much work for this process to say (``stepBudget``: only hostile
    /// rules files get there): the process then gets no friendly name, as if no rule
    /// matched, and the caller may say so once.
    public func resolveRule(comm: UnsafeRawBufferPointer, executable: UnsafeRawBufferPointer,
                            commandLine: UnsafeRawBufferPointer, into out: inout [UInt8],
                            outOfBudget: inout Bool) -> (index: Int, fixedName: Bool)? {
        out.removeAll(keepingCapacity: true)
        var budget = NameResolver.stepBudget
        let found = match(comm: comm, executable: executable, commandLine: commandLine, into: &out, budget: &budget)
        outOfBudget = found == nil && budget < 0
        return found
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
