// sysstatsd-history --data-dir DIR [--quiet-when-full] < batch: argument and stdin wiring
// only; the work (and its description) is HistoryWriter's, in HistoryStore.
import CLibc
import CommandOptions
import HistoryStore
import ProcFS
import SnapshotCodec

func writeStderr(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

// Every byte kept (ProcFS's pathString): the data directory may be a folder whose name is not UTF-8.
let arguments = programArguments().map { pathString(bytes: $0) }

// Like every program of the release, it says which release it is (a packaged install mixes
// programs only when something went wrong, and this is how to see it).
if arguments == ["--version"] {
    var line = "sysstatsd-history \(sysstatsVersion)\n"
    let written = line.withUTF8 { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    if written != line.utf8.count {
        writeStderr("sysstatsd-history: cannot write to stdout: \(String(cString: strerror(clibc_errno())))")
        exit(1)
    }
    exit(0)
}

let status = HistoryWriter.run(arguments: arguments,
                               input: { HistoryWriter.readBatch(from: STDIN_FILENO) },
                               report: writeStderr)
exit(status)
