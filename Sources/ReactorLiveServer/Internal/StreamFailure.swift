/// Why a stream refused a batch or could not be opened, in one line.
struct StreamFailure: Error, CustomStringConvertible {
  var description: String
  /// Whether the batch was valid but could not be stored (a full disk, a quota, a file-size
  /// limit): the app sends it again later.
  var isStorage = false
  init(_ description: String, isStorage: Bool = false) {
    self.description = description
    self.isStorage = isStorage
  }
}
