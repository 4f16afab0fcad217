/// `reactor-trace serve` could not start.
public enum LiveServerError: Error, Hashable, Sendable {
  /// The directory streams are kept in cannot be created or read.
  case unusableDirectory(path: String, reason: String)
  /// The token is not 16 to 128 letters, digits, `-` or `_`.
  case invalidToken(String)
  /// The address to listen on is not an IPv4 or IPv6 address.
  case invalidHost(String)
  /// The port is out of range.
  case invalidPort(Int)
  /// Listening failed.
  case cannotListen(address: String, reason: String)
  /// A kept stream could not be read back.
  case unreadableStream(path: String, reason: String)
  /// The token file is not a regular file of this user's that only this user can read.
  case unsafeTokenFile(path: String, reason: String)
}

extension LiveServerError: CustomStringConvertible {
  /// One line saying what went wrong.
  public var description: String {
    switch self {
    case .unusableDirectory(let path, let reason):
      "cannot use the stream directory '\(path)': \(reason)"
    case .invalidToken:
      "a token is 16 to 128 letters, digits, '-' or '_'"
    case .invalidHost(let host):
      "cannot listen on '\(host)': give an IPv4 or IPv6 address, such as 127.0.0.1 or 0.0.0.0"
    case .invalidPort(let port):
      "a port is 0 to 65535, not \(port)"
    case .cannotListen(let address, let reason):
      "cannot listen on \(address): \(reason)"
    case .unreadableStream(let path, let reason):
      "cannot resume the kept stream '\(path)': \(reason)"
    case .unsafeTokenFile(let path, let reason):
      "will not use the token file '\(path)': \(reason)"
    }
  }
}
