// Stand-in for the SDK's SQLite3 module, which Apple platforms import where Linux imports the package's CSQLite
// system library: the same C API from the same sqlite3.h, limited to what the oldest SDK the package supports
// ships. iOS 18 and macOS 15 have SQLite 3.43, so this is the machine's sqlite3.h without what came later:
//
// - Functions: .ci/apple-typecheck writes NewerFunctions.h beside this file from the machine's sqlite3ext.h,
//   whose table of every function marks the release that added each. Included before sqlite3.h, it renames the
//   ones newer than 3.43 (`sqlite3_get_clientdata` becomes `sqlite3_get_clientdata_is_SQLite_3_44_0_newer_...`),
//   so a call fails with "cannot find in scope"; included again after, it drops the renaming macros.
// - Constants: sqlite3ext.h does not list them. Those added after 3.43, up to the newest release checked here,
//   are undefined below; a machine with a newer sqlite3.h stops the check (the SQLITE_VERSION_NUMBER guard) until
//   the list covers it (sqlite.org/changes.html, "C-language interface" in each release's notes).
#include "NewerFunctions.h"
#include <sqlite3.h>
#include "NewerFunctions.h"

// 3.45.0
#undef SQLITE_RESULT_SUBTYPE
// Later releases, for a machine whose header the guard below is raised for:
// 3.48.0
#undef SQLITE_PREPARE_DONT_LOG
// 3.49.0
#undef SQLITE_DBCONFIG_ENABLE_ATTACH_CREATE
#undef SQLITE_DBCONFIG_ENABLE_ATTACH_WRITE
#undef SQLITE_DBCONFIG_ENABLE_COMMENTS
// 3.50.0
#undef SQLITE_SETLK_BLOCK_ON_CONNECT

// The constants of 3.44 to 3.46 are the ones above; beyond, the list is not checked yet.
#if SQLITE_VERSION_NUMBER >= 3047000
#error "this machine's sqlite3.h is newer than 3.46, the newest release whose constants .ci/apple-stubs/SQLite3/SQLite3.h hides: add what later releases added, then raise this bound"
#endif
