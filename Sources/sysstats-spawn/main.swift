// sysstats-spawn: the parent `sysstats measure` starts its command from, all of it in C
// (Sources/CSpawnHelper/spawn.c). Embedded Swift, so that the program links no Swift
// runtime library and stays as small as the C it runs.

import CSpawnHelper

cspawnhelper_run()
