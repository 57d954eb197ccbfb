// The system's SQLite (libsqlite3-dev on Debian and Ubuntu), for InteractorsSQLite on platforms whose SDK has no
// SQLite3 module. Apple platforms import the SDK's SQLite3 instead.
#include <sqlite3.h>
