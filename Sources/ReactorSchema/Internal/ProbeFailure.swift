/// Why a probing container could not give an `init(from:)` the value it asked for.
enum ProbeFailure: Error {
  /// No value of the named type could be made: it is being probed further up (a recursive
  /// type) or its own probe failed.
  case unavailable(String)
}

extension ProbeFailure: CustomStringConvertible {
  var description: String {
    switch self {
    case .unavailable(let name): "no value of \(name) could be made up"
    }
  }
}
