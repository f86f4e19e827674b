// sysstatsd-history --data-dir DIR [--quiet-when-full] < batch: argument and stdin wiring
// only; the work (and its description) is HistoryWriter's, in HistoryStore.
#if canImport(Glibc)
import Glibc
#endif
import HistoryStore

let status = HistoryWriter.run(arguments: Array(CommandLine.arguments.dropFirst()),
                               input: { HistoryWriter.readBatch(from: STDIN_FILENO) },
                               report: { message in
                                   var line = message + "\n"
                                   line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
                               })
exit(status)
