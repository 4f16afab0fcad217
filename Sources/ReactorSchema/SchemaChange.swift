public import ReactorJSON

/// One difference between the schema a trace recorded and the current one, found by
/// ``TraceSchema/changes(from:)``.
///
/// The ``path`` starts at `Action`, `Mutation` or `State` and follows fields and cases with
/// dots (`State.user.name`, `Action.setLoading._0`); `[]` stands for the elements of an array
/// or set and the values of a dictionary (`State.users[].name`), `[0]` for a tuple's first
/// value.
public struct SchemaChange: Sendable, Hashable {
  /// Where the change is: the type, field or case it concerns.
  public var path: String
  /// What changed.
  public var kind: Kind

  /// A change of `kind` at `path`.
  public init(path: String, kind: Kind) {
    self.path = path
    self.kind = kind
  }

  /// What changed at a ``SchemaChange/path``.
  public enum Kind: Sendable, Hashable {
    /// The enum gained the case with this name.
    case caseAdded(String)
    /// The enum lost the case with this name.
    case caseRemoved(String)
    /// The structure or enum case gained the field with this name.
    case fieldAdded(String)
    /// The structure or enum case lost the field with this name.
    case fieldRemoved(String)
    /// The value has another type; the types in Swift's notation (``TypeSchema/description``).
    case typeChanged(from: String, to: String)
    /// The value became optional or non-optional.
    case optionalityChanged(isOptional: Bool)
    /// The type became `Codable` or stopped being.
    case codabilityChanged(isCodable: Bool)
    /// The type became `Decodable` (it has a shape now) or stopped being, while staying
    /// non-`Codable`.
    case decodabilityChanged(isDecodable: Bool)
    /// The enum's raw value type changed, or it gained or lost raw values (`nil`).
    case rawValueTypeChanged(from: String?, to: String?)
    /// The case's raw value changed; `nil` where it is unknown.
    case rawValueChanged(from: JSONValue?, to: JSONValue?)
    /// The probe could describe the type only partly, or now can describe it fully.
    case completenessChanged(isPartial: Bool)
  }
}

extension SchemaChange: CustomStringConvertible {
  /// One line: the path, a colon and what changed, such as
  /// `Action: case 'reset' was added` or `State.count: type changed from Int to Double`.
  public var description: String {
    "\(path): \(kind)"
  }
}

extension SchemaChange.Kind: CustomStringConvertible {
  /// What changed, in words: `case 'reset' was added`.
  public var description: String {
    switch self {
    case .caseAdded(let name): "case '\(name)' was added"
    case .caseRemoved(let name): "case '\(name)' was removed"
    case .fieldAdded(let name): "field '\(name)' was added"
    case .fieldRemoved(let name): "field '\(name)' was removed"
    case .typeChanged(let from, let to): "type changed from \(from) to \(to)"
    case .optionalityChanged(let isOptional): isOptional ? "became optional" : "became non-optional"
    case .codabilityChanged(let isCodable): isCodable ? "became Codable" : "is no longer Codable"
    case .decodabilityChanged(let isDecodable):
      isDecodable ? "became Decodable" : "is no longer Decodable"
    case .rawValueTypeChanged(let from, let to):
      "raw value type changed from \(from ?? "none") to \(to ?? "none")"
    case .rawValueChanged(let from, let to):
      "raw value changed from \(from?.serializedString ?? "unknown") to "
        + (to?.serializedString ?? "unknown")
    case .completenessChanged(let isPartial):
      isPartial
        ? "its init(from:) can now be probed only in part"
        : "its init(from:) can now be probed completely"
    }
  }
}
