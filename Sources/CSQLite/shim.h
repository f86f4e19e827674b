// libsqlite3's C API for Swift (system library target; pkg-config sqlite3).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: bind calls that must copy
// their argument use this instead.
static inline void (*csqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
