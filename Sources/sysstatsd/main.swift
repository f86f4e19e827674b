// sysstatsd: argument parsing and wiring only; the work is in the Sampler library.
import CLibc
import CommandOptions
import Sampler
import SnapshotCodec

// Relative paths on the command line mean the folder it was typed in; then the sampler leaves
// that folder for good, before it reads a file or starts a child (StartFolder).
let arguments: [[UInt8]]
switch StartFolder.absolutePaths(programArguments(), folder: StartFolder.current()) {
case .failure(let error):
    printError("sysstatsd: \(error)")
    exit(2)
case .success(let absolute):
    arguments = absolute
}
StartFolder.leave()
switch SamplerOptions.parseWithConfigFile(bytes: arguments) {
case .failure(let error):
    printError("sysstatsd: \(error)")
    exit(2)
case .success(.help):
    print(SamplerOptions.usage)
    exitIfStdoutFailed()
case .success(.version):
    print("sysstatsd \(sysstatsVersion)")
    exitIfStdoutFailed()
case .success(.run(let configuration)):
    exit(SamplerLoop.run(configuration, reloadArguments: arguments))
}

/// A help or version text that could not be written (a full disk, /dev/full) is one line on
/// stderr and status 1, not a silent 0.
func exitIfStdoutFailed() {
    guard fflush(nil) != 0 else { return }
    printError("sysstatsd: cannot write to standard output: \(String(cString: strerror(clibc_errno())))")
    exit(1)
}
