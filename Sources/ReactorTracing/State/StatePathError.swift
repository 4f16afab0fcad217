/// Why a text is not a ``StatePath``.
public struct StatePathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text as given.
  public var text: String
  /// What is wrong with it, such as `it has an empty field name`.
  public var reason: String

  /// `'tasks..title' is not a state path: it has an empty field name (write fields and
  /// indices separated by dots, such as tasks.0.title)`.
  public var description: String {
    "'\(text)' is not a state path: \(reason) (write fields and indices separated by dots, "
      + "such as tasks.0.title)"
  }
}
