public import ReactorJSON
public import ReactorSchema

extension StatePath {
  /// Whether a state of type `schema` can have a value at this path: each key names a field
  /// of a structure (or any key of a dictionary), each index an element of an array or set;
  /// optionals and wrappers are seen through.
  ///
  /// - Parameter schema: The state's schema, from a trace header.
  /// - Returns: Whether the path leads somewhere in the type.
  public func isDescribed(by schema: TypeSchema) -> Bool {
    var current = schema
    var rest = components[...]
    while let component = rest.first {
      switch current {
      case .optional(let wrapped), .wrapper(_, let wrapped):
        current = wrapped
        continue
      case .structure(_, let fields, _):
        guard let field = fields.first(where: { $0.name == component }) else { return false }
        current = field.schema
      case .array(let element), .set(let element):
        guard Self.index(component) != nil else { return false }
        current = element
      case .dictionary(_, let value):
        current = value
      case .tuple(let elements):
        guard let element = Self.element(component, of: elements) else { return false }
        current = element
      default:
        return false
      }
      rest = rest.dropFirst()
    }
    return true
  }

  /// Every path to a field of a state of type `schema`, parents before their fields, an
  /// array's elements shown by its first (`tasks.0.title`): the paths a user can give.
  ///
  /// - Parameter schema: The state's schema.
  /// - Returns: The paths, in the schema's field order.
  public static func fieldPaths(of schema: TypeSchema) -> [StatePath] {
    var paths: [StatePath] = []
    collect(schema, at: [], depth: 0, into: &paths)
    return paths
  }

  /// Every path to a member or element of `state` below its root, parents before their
  /// members, an array's elements shown by its first.
  ///
  /// - Parameter state: A state's JSON.
  /// - Returns: The paths, in the state's order.
  public static func fieldPaths(of state: JSONValue) -> [StatePath] {
    var paths: [StatePath] = []
    collect(state, at: [], into: &paths)
    return paths
  }

  /// How deep ``fieldPaths(of:)-(TypeSchema)`` follows a schema.
  private static let depthLimit = 16

  private static func collect(
    _ schema: TypeSchema, at path: [String], depth: Int, into paths: inout [StatePath]
  ) {
    guard depth < depthLimit else { return }
    func add(_ component: String, _ schema: TypeSchema) {
      paths.append(StatePath(components: path + [component]))
      collect(schema, at: path + [component], depth: depth + 1, into: &paths)
    }
    switch schema {
    case .optional(let wrapped), .wrapper(_, let wrapped):
      collect(wrapped, at: path, depth: depth + 1, into: &paths)
    case .structure(_, let fields, _):
      for field in fields { add(field.name, field.schema) }
    case .array(let element), .set(let element):
      add("0", element)
    default:
      break
    }
  }

  private static func collect(_ value: JSONValue, at path: [String], into paths: inout [StatePath])
  {
    switch value {
    case .object(let object):
      for (key, member) in object.members {
        paths.append(StatePath(components: path + [key]))
        collect(member, at: path + [key], into: &paths)
      }
    case .array(let elements):
      guard let first = elements.first else { return }
      paths.append(StatePath(components: path + ["0"]))
      collect(first, at: path + ["0"], into: &paths)
    default:
      break
    }
  }
}
