// Stand-in for the SDK's SQLite3 module, which Apple platforms import where Linux imports the package's CSQLite
// system library. Both are the same C API from the same sqlite3.h (Apple's SDK ships its own copy), imported the
// same way, so this re-exports CSQLite: what this checks is that the `#if canImport(SQLite3)` branches (the
// import itself, Darwin's full syncs) compile.
@_exported import CSQLite
