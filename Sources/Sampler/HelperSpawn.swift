import CLibc
import ProcFS

/// A helper the sampler started (the NVIDIA helper, the sound helper): its pid and the
/// non-blocking read end of the pipe that is its stdout.
struct SpawnedHelper {
    let pid: pid_t
    let readEnd: Int32

    /// Starts `path` with `arguments` after its name, stdin /dev/null, stdout a pipe, in an
    /// environment without empty or relative library-path entries (``ChildEnvironment``: a
    /// helper loads a shared library). The error posix_spawn gave when it could not.
    static func start(_ path: String, _ arguments: [String]) -> Result<SpawnedHelper, Errno> {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return .failure(Errno(rawValue: clibc_errno())) }
        let readFD = fds[0], writeFD = fds[1]
        _ = clibc_fcntl(readFD, F_SETFD, Int(FD_CLOEXEC))
        _ = clibc_fcntl(writeFD, F_SETFD, Int(FD_CLOEXEC))
        _ = clibc_fcntl(readFD, F_SETFL, Int(clibc_fcntl(readFD, F_GETFL, 0) | O_NONBLOCK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeFD, STDOUT_FILENO)
        var words: [[CChar]] = [cPath(path)]
        for a in arguments { words.append(cPath(a)) }
        var child: pid_t = 0
        let status = words.withUnsafeMutableBufferPointer { all -> Int32 in
            var argv: [UnsafeMutablePointer<CChar>?] = []
            for k in all.indices { argv.append(all[k].withUnsafeMutableBufferPointer { $0.baseAddress }) }
            argv.append(nil)
            return ChildEnvironment.withFiltered { posix_spawn(&child, argv[0]!, &actions, nil, &argv, $0) }
        }
        close(writeFD)
        guard status == 0 else {
            close(readFD)
            return .failure(Errno(rawValue: status))
        }
        return .success(SpawnedHelper(pid: child, readEnd: readFD))
    }
}
