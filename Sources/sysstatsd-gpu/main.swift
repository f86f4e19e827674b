// sysstatsd-gpu: the sampler's NVIDIA helper, all of it in C (Sources/CGPUHelper/helper.c).
// Embedded Swift, so that the program links no Swift runtime library.

import CGPUHelper

cgpuhelper_run()
