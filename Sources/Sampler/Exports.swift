// The runtime directory, the environment and the clocks are SystemDirs' (the CLI shares
// them without linking the sampler); the sampler's users see them through it.
@_exported import SystemDirs
