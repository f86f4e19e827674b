// sysstatsd: argument parsing and wiring only; the work is in the Sampler library.
#if canImport(Glibc)
import Glibc
#endif
import Sampler
import SnapshotCodec

switch SamplerOptions.parseWithConfigFile(bytes: SamplerOptions.processArguments()) {
case .failure(let error):
    printError("sysstatsd: \(error)")
    exit(2)
case .success(.help):
    print(SamplerOptions.usage)
case .success(.version):
    print("sysstatsd \(sysstatsVersion)")
case .success(.run(let configuration)):
    exit(SamplerLoop.run(configuration))
}
