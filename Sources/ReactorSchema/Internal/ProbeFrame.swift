/// One call of a type's `init(from:)` under the probe: the candidate values its own strings
/// and integers get, and the record of what it asked for.
final class ProbeFrame {
  /// The probe that describes nested types.
  let probe: SchemaProbe
  /// The values of the strings and integers this call decodes.
  let candidate: ProbeCandidate
  /// What the decoder's containers record.
  let root = ProbeRecord()
  /// Whether the call decoded a string or an integer, so that another candidate might help.
  private(set) var usedCandidate = false
  /// In an enum's probe, the string of the coding key that stands for the case being probed,
  /// once a keyed container found it.
  private(set) var caseCodingKey: String?

  init(probe: SchemaProbe, candidate: ProbeCandidate) {
    self.probe = probe
    self.candidate = candidate
  }

  /// Makes up a value of `T`, passing its schema to `record` first.
  /// - Throws: ``ProbeFailure/unavailable(_:)`` when no value of `T` can be made.
  func decode<T: Decodable>(_ type: T.Type, record: (TypeSchema) -> Void) throws -> T {
    if let name = PrimitiveType.name(of: T.self) {
      record(.primitive(name))
      if T.self == String.self || T.self is any FixedWidthInteger.Type { usedCandidate = true }
      guard
        let value = PrimitiveType.value(
          of: T.self,
          string: candidate.string,
          integer: candidate.integer
        )
      else { throw ProbeFailure.unavailable(name) }
      return value
    }
    let (schema, value) = probe.probe(T.self)
    record(schema)
    guard let value else { throw ProbeFailure.unavailable(TypeName.of(T.self)) }
    return value
  }

  /// The string of the coding key of type `Key` for the enum case `name`.
  ///
  /// Synthesized keys are the case names; keys with other strings are found by building the
  /// key case of the same name from its tag. Falls back to `name`.
  func caseKey<Key: CodingKey>(named name: String, as type: Key.Type) -> String {
    if let key = Key(stringValue: name) {
      caseCodingKey = key.stringValue
    } else if let cases = TypeMetadata.enumCases(of: Key.self),
      let index = cases.firstIndex(where: { $0.name == name }),
      let key = TypeMetadata.payloadFreeCase(Key.self, tag: index, of: cases)
    {
      caseCodingKey = key.stringValue
    }
    return caseCodingKey ?? name
  }

  /// The schema of `T` without making up a value, for `decodeIfPresent`.
  func schema<T: Decodable>(of type: T.Type) -> TypeSchema {
    probe.probe(T.self).schema
  }
}
