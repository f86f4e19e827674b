// Everything lives in include/CBarSys.h; SwiftPM needs one source file.
#include "CBarSys.h"
