/// Why schema JSON (a trace header's `schema`) could not be read.
///
/// Every case carries the JSON path of the offending value, from `$` for the value passed in:
/// `$.state.shape.fields.count`.
public enum TraceSchemaError: Error, Sendable, Hashable {
  /// The value at `path` has the wrong JSON type.
  case wrongType(path: String, expected: String, found: String)
  /// The object at `path` lacks the required member `member`.
  case missingMember(path: String, member: String)
  /// The object at `path` has none of the members that say which kind of node it is.
  case unknownNode(path: String)
  /// The digest at `path` is not 16 hexadecimal digits.
  case malformedDigest(path: String, text: String)
}

extension TraceSchemaError: CustomStringConvertible {
  /// One line naming the path and what is wrong there.
  public var description: String {
    switch self {
    case .wrongType(let path, let expected, let found):
      "\(path): expected \(expected), found \(found)"
    case .missingMember(let path, let member):
      "\(path): missing member '\(member)'"
    case .unknownNode(let path):
      "\(path): not a schema node (it has none of the members "
        + SchemaJSON.nodeKinds.joined(separator: ", ") + ")"
    case .malformedDigest(let path, let text):
      "\(path): digest '\(text)' is not 16 hexadecimal digits"
    }
  }
}
