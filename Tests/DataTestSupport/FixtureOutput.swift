import Foundation
import InteractorsData

// What the store fixtures (DataStoreFixture, SQLiteStoreFixture) print for the test that started them.

/// Prints `line` on standard output, unbuffered, so the test sees each line at once, even if it kills the
/// process right after.
package func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Prints "error <DataError code>: <message>" (or "error <error>" for another error) and exits with status 1.
package func fail(_ error: any Error) -> Never {
    if let error = error as? DataError {
        say("error \(error.code): \(error.message)")
    } else {
        say("error \(error)")
    }
    exit(1)
}
