public import ReactorJSON

/// The shape of a `Decodable` type as its `init(from:)` decodes it: the fields of a struct,
/// the cases of an enum and their payloads, down to the primitives.
///
/// ``TypeFingerprint`` derives it at run time by probing the type's `init(from:)` (Swift has
/// no other macro-free way to list a type's shape), and traces record it so that a replay
/// can say which fields or cases changed since the recording. Fields and cases are sorted by
/// name, the order their JSON objects keep, so equal shapes compare equal.
///
/// Type names are `String(reflecting:)` without module prefixes: `CounterReactor.Action`,
/// `Pulse<Optional<String>>`.
public indirect enum TypeSchema: Sendable, Hashable {
  /// A value decoders decode directly, by name: `Bool`, `String`, `Double`, `Float`, `Int`,
  /// `Int8`…`Int128`, `UInt`, `UInt8`…`UInt128`.
  case primitive(String)
  /// An optional; also what `decodeIfPresent` decodes.
  case optional(TypeSchema)
  /// An array (or any list decoded element by element).
  case array(TypeSchema)
  /// A set.
  case set(TypeSchema)
  /// A dictionary; JSON writes `String` and `Int` keys as object keys.
  case dictionary(key: TypeSchema, value: TypeSchema)
  /// A fixed number of values decoded one after another from one unkeyed container, such
  /// as a `Range`'s bounds.
  case tuple([TypeSchema])
  /// A type decoded from a keyed container (a struct or a class), with its fields sorted by
  /// name. `isPartial` when its initializer failed after decoding these fields, so more may
  /// follow.
  case structure(name: String, fields: [Field], isPartial: Bool)
  /// A type decoded from one value of another, such as a `Date` (a `Double`) or a type that
  /// wraps a `String`.
  case wrapper(name: String, value: TypeSchema)
  /// An enum with its cases sorted by name. `rawValue` names the primitive a raw-value enum
  /// decodes (its cases then carry their raw values where known); enums with payloads have
  /// none. `isPartial` when some case could not be probed completely.
  case enumeration(name: String, rawValue: String?, cases: [Case], isPartial: Bool)
  /// A type met again inside itself (a recursive enum, a class that holds itself).
  case reference(String)
  /// A type that could not be probed: its initializer rejected every value made up for it.
  case opaque(String)
}

extension TypeSchema {
  /// A field of a ``TypeSchema/structure(name:fields:isPartial:)``, or a payload value of an
  /// enum case: its coding key and its schema.
  public struct Field: Sendable, Hashable {
    /// The coding key: the property name, a payload label, or `_0`, `_1`… for unlabelled
    /// payload values.
    public var name: String
    /// The field's schema.
    public var schema: TypeSchema

    /// A field named `name`.
    public init(name: String, schema: TypeSchema) {
      self.name = name
      self.schema = schema
    }
  }

  /// A case of a ``TypeSchema/enumeration(name:rawValue:cases:isPartial:)``.
  public struct Case: Sendable, Hashable {
    /// The case's name, its coding key.
    public var name: String
    /// The case's raw value, when the enum has raw values and it could be read.
    public var rawValue: JSONValue?
    /// The payload's fields, sorted by name; empty for a case without payload.
    public var fields: [Field]

    /// A case named `name`.
    public init(name: String, rawValue: JSONValue? = nil, fields: [Field] = []) {
      self.name = name
      self.rawValue = rawValue
      self.fields = fields
    }
  }
}

extension TypeSchema {
  /// The name of the type: of a structure, wrapper, enumeration, reference or opaque type;
  /// `nil` for primitives and the standard containers.
  public var typeName: String? {
    switch self {
    case .structure(let name, _, _), .wrapper(let name, _), .enumeration(let name, _, _, _),
      .reference(let name), .opaque(let name):
      name
    case .primitive, .optional, .array, .set, .dictionary, .tuple:
      nil
    }
  }

  /// The same schema with every type name (of structures, wrappers, enumerations, references
  /// and opaque types) emptied: what a ``TypeFingerprint/digest`` covers, so that renaming a
  /// type changes nothing.
  public var anonymized: TypeSchema {
    switch self {
    case .primitive: self
    case .optional(let wrapped): .optional(wrapped.anonymized)
    case .array(let element): .array(element.anonymized)
    case .set(let element): .set(element.anonymized)
    case .dictionary(let key, let value): .dictionary(key: key.anonymized, value: value.anonymized)
    case .tuple(let elements): .tuple(elements.map(\.anonymized))
    case .structure(_, let fields, let isPartial):
      .structure(name: "", fields: fields.map(\.anonymized), isPartial: isPartial)
    case .wrapper(_, let value): .wrapper(name: "", value: value.anonymized)
    case .enumeration(_, let rawValue, let cases, let isPartial):
      .enumeration(
        name: "",
        rawValue: rawValue,
        cases: cases.map {
          Case(name: $0.name, rawValue: $0.rawValue, fields: $0.fields.map(\.anonymized))
        },
        isPartial: isPartial
      )
    case .reference: .reference("")
    case .opaque: .opaque("")
    }
  }
}

extension TypeSchema.Field {
  fileprivate var anonymized: TypeSchema.Field {
    TypeSchema.Field(name: name, schema: schema.anonymized)
  }
}
