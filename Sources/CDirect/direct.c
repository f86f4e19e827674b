// The functions are static inline in include/CDirect.h; SwiftPM wants a source file.
