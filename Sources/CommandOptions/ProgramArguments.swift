import CLibc

/// This program's arguments after its name, as bytes: main's argv, which CLibc saves before
/// main runs. Every program parses these (Embedded Swift has no `CommandLine`; in the sampler
/// its one-time set-up was also the only code run in two 64 KiB windows of code pages,
/// docs/performance-history.md).
public func programArguments() -> [[UInt8]] {
    guard let argv = clibc_argv() else { return [] }
    var arguments: [[UInt8]] = []
    var i = 1
    while i < Int(clibc_argc()), let p = argv[i] {
        arguments.append(Array(UnsafeRawBufferPointer(start: p, count: strlen(p))))
        i += 1
    }
    return arguments
}
