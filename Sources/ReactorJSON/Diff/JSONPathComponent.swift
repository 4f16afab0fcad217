/// One step of a path into a JSON value: an object member's key or an array index.
///
/// Paths locate what a state diff changes and what a redaction hides. Written in traces as a
/// JSON array of strings (keys) and integers (indices): `["tasks", 2, "isDone"]`.
public enum JSONPathComponent: Hashable, Sendable {
  /// An object member.
  case key(String)
  /// An array element, counted from 0.
  case index(Int)

  /// The component as JSON: a string or an integer.
  public var json: JSONValue {
    switch self {
    case .key(let key): .string(key)
    case .index(let index): .int(Int64(index))
    }
  }
}

extension JSONPathComponent: CustomStringConvertible {
  /// `name` for a key, `[2]` for an index.
  public var description: String {
    switch self {
    case .key(let key): key
    case .index(let index): "[\(index)]"
    }
  }
}

extension [JSONPathComponent] {
  /// The path in dotted form: `tasks[2].isDone`; the empty path is `(root)`.
  public var dottedDescription: String {
    guard !isEmpty else { return "(root)" }
    var text = ""
    for component in self {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }
}
