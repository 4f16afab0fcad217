/// A decoder that makes up values while recording what an `init(from:)` asks for.
struct ProbeDecoder: Decoder {
  let frame: ProbeFrame
  let record: ProbeRecord
  let codingPath: [any CodingKey]
  /// In an enum's probe, the key of the case being probed; `nil` everywhere else.
  let caseKey: String?

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(
      ProbeKeyedContainer<Key>(
        frame: frame,
        record: record,
        codingPath: codingPath,
        caseKey: caseKey.map { frame.caseKey(named: $0, as: Key.self) }
      )
    )
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    record.usesUnkeyedContainer = true
    return ProbeUnkeyedContainer(frame: frame, record: record, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ProbeSingleValueContainer(frame: frame, record: record, codingPath: codingPath)
  }
}
