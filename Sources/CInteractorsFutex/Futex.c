// Everything is `static inline` in include/CInteractorsFutex.h; SwiftPM needs one source file per C target.
#include "CInteractorsFutex.h"
