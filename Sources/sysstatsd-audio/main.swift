// sysstatsd-audio: the sound helper of the sampler and the bar, all of it in C
// (Sources/CAudioHelper/helper.c). Embedded Swift, so that the program links no Swift
// runtime library.

import CAudioHelper

caudiohelper_run()
