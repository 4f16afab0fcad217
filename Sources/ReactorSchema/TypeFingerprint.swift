public import ReactorJSON

/// What a trace records about one of a reactor's types: its name, whether it is `Codable`,
/// its ``TypeSchema`` and a digest of that schema.
///
/// ```swift
/// let state = TypeFingerprint(of: CounterReactor.State.self)
/// state.name      // "CounterReactor.State"
/// state.isCodable // true
/// state.shape     // .structure(name: "CounterReactor.State", fields: [...], isPartial: false)
/// ```
///
/// The digest ignores type names, so renaming a type keeps it; adding, removing or renaming a
/// field or case, or changing a type, changes it.
public struct TypeFingerprint: Sendable, Hashable {
  /// The type's name: `String(reflecting:)` without module prefixes.
  public var name: String
  /// Whether the type is both `Encodable` and `Decodable`.
  public var isCodable: Bool
  /// The type's schema, or `nil` when it is not `Decodable`.
  public var shape: TypeSchema?
  /// The hash of the shape's JSON with its type names emptied.
  ///
  /// The canonical hash of ``TypeSchema/anonymized``'s JSON, or of `null` without a shape.
  /// Read from JSON, it is the digest as recorded.
  public var digest: TraceHash

  /// A fingerprint with these parts and the digest of `shape`.
  public init(name: String, isCodable: Bool, shape: TypeSchema?) {
    self.name = name
    self.isCodable = isCodable
    self.shape = shape
    self.digest = Self.digest(of: shape)
  }

  /// Probes `type`: probes its `init(from:)` when it is `Decodable`.
  ///
  /// Probing calls the initializer with made-up values (see ``TypeSchema``); it must not
  /// trap on values it rejects. It takes well under a millisecond for typical types.
  /// - Parameter type: Any type; types that are not `Decodable` get no shape.
  public init<T>(of type: T.Type) {
    let shape = (type as? any Decodable.Type).map { SchemaProbe().probe($0).schema }
    self.init(
      name: TypeName.of(type),
      isCodable: type is any (Encodable & Decodable).Type,
      shape: shape
    )
  }

  /// The digest of a shape: the canonical hash of its anonymized JSON, or of `null`.
  public static func digest(of shape: TypeSchema?) -> TraceHash {
    (shape?.anonymized.json ?? .null).canonicalHash
  }
}
