// The runtime directory, the environment and the clocks are SystemDirs' (the CLI shares
// them without linking the sampler); the sampler's users see them through it.
#if hasFeature(Embedded)
@_exported import SystemDirsEmbedded
#else
@_exported import SystemDirs
#endif
