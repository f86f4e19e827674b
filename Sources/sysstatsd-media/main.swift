// sysstatsd-media: the media helper of the sampler and the bar, all of it in C
// (Sources/CMediaHelper/helper.c). Embedded Swift, so that the program links no Swift
// runtime library.

import CMediaHelper

cmediahelper_run()
