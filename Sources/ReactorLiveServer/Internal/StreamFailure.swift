/// Why a stream refused a batch or could not be opened, in one line.
struct StreamFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
