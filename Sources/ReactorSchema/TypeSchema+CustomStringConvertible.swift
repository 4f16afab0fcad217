extension TypeSchema: CustomStringConvertible {
  /// The schema in Swift's type notation, as change descriptions name types: `Int`,
  /// `String?`, `[User]`, `Set<Int>`, `[String: Double]`, `(Int, Int)`, or the type's name.
  public var description: String {
    switch self {
    case .primitive(let name): name
    case .optional(let wrapped): "\(wrapped)?"
    case .array(let element): "[\(element)]"
    case .set(let element): "Set<\(element)>"
    case .dictionary(let key, let value): "[\(key): \(value)]"
    case .tuple(let elements): "(\(elements.map(\.description).joined(separator: ", ")))"
    case .structure(let name, let fields, _):
      name.isEmpty ? "{\(fields.map(\.name).joined(separator: ", "))}" : name
    case .wrapper(let name, let value): name.isEmpty ? value.description : name
    case .enumeration(let name, _, _, _): name.isEmpty ? "enum" : name
    case .reference(let name): name.isEmpty ? "reference" : name
    case .opaque(let name): name.isEmpty ? "opaque" : name
    }
  }
}
