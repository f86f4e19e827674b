/// The release of sysstats, one for every program (sysstatsd, sysstats-bar, sysstats).
/// Here because every program links this module, the Embedded renderer included.
public let sysstatsVersion: StaticString = "0.1.0"
