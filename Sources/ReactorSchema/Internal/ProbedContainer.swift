/// The standard containers, whose schema follows from their element types without decoding
/// anything: arrays, sets, dictionaries and optionals.
///
/// The conformances are conditional on the elements being `Decodable`, so a dynamic cast to
/// `any ProbedContainer.Type` finds exactly the containers a probe can describe.
protocol ProbedContainer {
  /// The container's schema, its element types described by `probe`.
  static func probedSchema(_ probe: SchemaProbe) -> TypeSchema
  /// An empty container (`nil` for an optional), the value a probe makes up.
  static var probedEmptyValue: Self { get }
}

extension Optional: ProbedContainer where Wrapped: Decodable {
  static func probedSchema(_ probe: SchemaProbe) -> TypeSchema {
    .optional(probe.probe(Wrapped.self).schema)
  }

  static var probedEmptyValue: Self { nil }
}

extension Array: ProbedContainer where Element: Decodable {
  static func probedSchema(_ probe: SchemaProbe) -> TypeSchema {
    .array(probe.probe(Element.self).schema)
  }

  static var probedEmptyValue: Self { [] }
}

extension ContiguousArray: ProbedContainer where Element: Decodable {
  static func probedSchema(_ probe: SchemaProbe) -> TypeSchema {
    .array(probe.probe(Element.self).schema)
  }

  static var probedEmptyValue: Self { [] }
}

extension Set: ProbedContainer where Element: Decodable {
  static func probedSchema(_ probe: SchemaProbe) -> TypeSchema {
    .set(probe.probe(Element.self).schema)
  }

  static var probedEmptyValue: Self { [] }
}

extension Dictionary: ProbedContainer where Key: Decodable, Value: Decodable {
  static func probedSchema(_ probe: SchemaProbe) -> TypeSchema {
    .dictionary(key: probe.probe(Key.self).schema, value: probe.probe(Value.self).schema)
  }

  static var probedEmptyValue: Self { [:] }
}
