import CLibc
import Bookmarks
import CommandOptions

/// The folder sysstatsd was started in, which it leaves at once for `/`. A sampler stays up for
/// the session, and every child it starts (the history writer, the NVIDIA helper) begins in
/// its current folder, where the dynamic loader looks for libraries when LD_LIBRARY_PATH has
/// an empty or relative entry (`:/usr/local/cuda/lib64`): a bar started from a terminal in
/// `/tmp` gave the sampler `/tmp`, and a `libnvidia-ml.so.1` another user put there ran as
/// the sampler's user at every helper start (``ChildEnvironment`` drops such entries too).
///
/// A relative path on the command line still means what the user typed it against: it is
/// made absolute from the start folder first, and the re-execution after a config change
/// (``SamplerReload``) gets the absolute form.
public enum StartFolder {
    /// Whether `flag`'s value is a path (a directory or the config file). `--disk` is not:
    /// it must be absolute already.
    static func isPath(_ flag: SamplerOptions.Flag) -> Bool {
        switch flag {
        case .config, .runtimeDir, .dataDir, .procRoot, .sysRoot, .textfileDir: true
        default: false
        }
    }

    /// `arguments` (after the program's name) with each relative path value made absolute
    /// against `folder`; every other argument as given. Refused when a path is relative and
    /// `folder` is nil (the start folder was removed, or has no name within PATH_MAX): it
    /// would otherwise silently mean `/`.
    public static func absolutePaths(_ arguments: [[UInt8]], folder: [UInt8]?) -> Result<[[UInt8]], OptionsError> {
        var unresolved: [UInt8]?
        let resolved = SamplerOptions.table.rewritingValues(arguments) { id, value in
            // An empty value is left for the option's own check ("needs a directory").
            guard let flag = SamplerOptions.Flag(rawValue: id), isPath(flag),
                  let first = value.first, first != UInt8(ascii: "/") else { return nil }
            guard let folder else {
                if unresolved == nil { unresolved = Array(value) }
                return nil
            }
            var path = folder
            if path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
            path.append(contentsOf: value)
            return path
        }
        if let unresolved {
            return .failure(OptionsError("cannot tell where the relative path '\(TerminalText.escape(unresolved))' is: the current folder has no name (give an absolute path)"))
        }
        return .success(resolved)
    }

    /// The current folder's path (getcwd), nil when it has none.
    public static func current() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let found = buffer.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { getcwd($0, p.count) != nil }
        }
        // A folder removed under us can come back as "(unreachable)/…": only a path from the root counts.
        guard found, buffer[0] == UInt8(ascii: "/") else { return nil }
        var n = 0
        while buffer[n] != 0 { n += 1 }
        buffer.removeLast(buffer.count - n)
        return buffer
    }

    /// Leaves the start folder for `/`, which every system has and only root can write.
    public static func leave() {
        _ = chdir("/")
    }
}
