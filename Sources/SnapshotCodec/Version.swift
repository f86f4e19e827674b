/// The release of sysstats, one for every program: each prints `PROGRAM VERSION` for
/// `--version`, and install/package.sh names the .deb and the tarball after what the built
/// programs print, so this line is the only place a release is set (CHANGELOG.md's newest
/// heading must match it; EndToEndTests checks both).
/// Here because every program links this module, the Embedded renderer included.
public let sysstatsVersion: StaticString = "0.2.0"
