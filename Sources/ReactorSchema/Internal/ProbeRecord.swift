import ReactorJSON

/// What the containers of one `init(from:)` call were asked for: keyed fields, unkeyed
/// elements or a single value, with nested containers as records of their own.
final class ProbeRecord {
  /// One recorded value: a schema, or a nested container still being filled.
  enum Entry {
    case schema(TypeSchema)
    case record(ProbeRecord)

    var schema: TypeSchema {
      switch self {
      case .schema(let schema): schema
      case .record(let record): record.anonymousSchema
      }
    }
  }

  /// The keyed fields in the order they were first decoded.
  private(set) var fields: [(key: String, entry: Entry)] = []
  /// The unkeyed elements in order.
  private(set) var elements: [Entry] = []
  /// The single value, if a single-value container decoded one.
  private(set) var single: TypeSchema?
  /// Whether an unkeyed container was asked for.
  var usesUnkeyedContainer = false

  /// How much was recorded, to pick the most informative of several failed attempts.
  var recordedCount: Int { fields.count + elements.count + (single == nil ? 0 : 1) }

  /// Records a keyed field; a key decoded twice keeps its first schema.
  func setField(_ key: String, _ entry: Entry) {
    guard !fields.contains(where: { $0.key == key }) else { return }
    fields.append((key, entry))
  }

  /// Records the next unkeyed element.
  func appendElement(_ entry: Entry) {
    elements.append(entry)
  }

  /// Records the single value; only the first counts.
  func setSingle(_ schema: TypeSchema) {
    if single == nil { single = schema }
  }

  /// The keyed fields sorted by name, as schemas keep them.
  var fieldSchemas: [TypeSchema.Field] {
    fields
      .map { TypeSchema.Field(name: $0.key, schema: $0.entry.schema) }
      .sorted { JSONObject.keyPrecedes($0.name, $1.name) }
  }

  /// The schema of a type named `name` whose `init(from:)` produced this record.
  func schema(named name: String, isPartial: Bool) -> TypeSchema {
    if let single { return .wrapper(name: name, value: single) }
    if usesUnkeyedContainer, fields.isEmpty { return .wrapper(name: name, value: elementsSchema) }
    return .structure(name: name, fields: fieldSchemas, isPartial: isPartial)
  }

  /// The schema of a nested container, which has no type name.
  var anonymousSchema: TypeSchema {
    if let single { return single }
    if usesUnkeyedContainer, fields.isEmpty { return elementsSchema }
    return .structure(name: "", fields: fieldSchemas, isPartial: false)
  }

  /// One element decoded (a loop that stopped at `isAtEnd`) is an array; several decoded one
  /// after another are a fixed-length tuple.
  private var elementsSchema: TypeSchema {
    elements.count == 1 ? .array(elements[0].schema) : .tuple(elements.map(\.schema))
  }
}
