/// The JSON a ``FileDataSource`` writes: a marker that says what the file is, a format version, and the values
/// in order. The marker is how a foreign JSON file is told apart from a collection, so it is refused instead of
/// being read as an empty one and overwritten.
struct StoredCollection<Value: Codable>: Codable {
    static var formatName: String { "InteractorsData.FileDataSource" }
    static var currentVersion: Int { 1 }

    var format: String
    var version: Int
    var values: [Value]

    init(values: [Value]) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.values = values
    }
}
