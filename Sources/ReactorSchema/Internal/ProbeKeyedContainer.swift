/// The keyed container of a probing decoder: every key is present (except in an enum's probe,
/// where only the case's key is), every decode is recorded and answered with a made-up value,
/// and `decodeIfPresent` records an optional and answers `nil`.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let frame: ProbeFrame
  let record: ProbeRecord
  let codingPath: [any CodingKey]
  /// In an enum's probe, the key of the case being probed, the only key `allKeys` lists;
  /// `nil` everywhere else.
  let caseKey: String?

  var allKeys: [Key] {
    guard let caseKey, let key = Key(stringValue: caseKey) else { return [] }
    return [key]
  }

  func contains(_ key: Key) -> Bool {
    caseKey.map { $0 == key.stringValue } ?? true
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    !contains(key)
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try value(type, forKey: key)
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try value(type, forKey: key)
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try value(type, forKey: key)
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try value(type, forKey: key)
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try value(type, forKey: key)
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try value(type, forKey: key)
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try value(type, forKey: key)
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try value(type, forKey: key)
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try value(type, forKey: key)
  }

  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    try value(type, forKey: key)
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try value(type, forKey: key)
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try value(type, forKey: key)
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try value(type, forKey: key)
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try value(type, forKey: key)
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try value(type, forKey: key)
  }

  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    try value(type, forKey: key)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try valueIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    try valueIfPresent(type, forKey: key)
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try value(type, forKey: key)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try valueIfPresent(type, forKey: key)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type,
    forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    // An enum case's payload: its fields are the case's fields.
    let nested = key.stringValue == caseKey ? record : nestedRecord(forKey: key)
    return KeyedDecodingContainer(
      ProbeKeyedContainer<NestedKey>(
        frame: frame,
        record: nested,
        codingPath: codingPath + [key],
        caseKey: nil
      )
    )
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let nested = nestedRecord(forKey: key)
    nested.usesUnkeyedContainer = true
    return ProbeUnkeyedContainer(frame: frame, record: nested, codingPath: codingPath + [key])
  }

  func superDecoder() throws -> any Decoder {
    ProbeDecoder(
      frame: frame,
      record: nestedRecord(forKey: ProbeCodingKey.superKey),
      codingPath: codingPath + [ProbeCodingKey.superKey],
      caseKey: nil
    )
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ProbeDecoder(
      frame: frame,
      record: nestedRecord(forKey: key),
      codingPath: codingPath + [key],
      caseKey: nil
    )
  }

  private func value<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try frame.decode(type) { record.setField(key.stringValue, .schema($0)) }
  }

  private func valueIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    // In an enum's probe the case's key is present, for enums that test which key is there.
    if key.stringValue == caseKey { return try value(type, forKey: key) }
    record.setField(key.stringValue, .schema(.optional(frame.schema(of: type))))
    return nil
  }

  private func nestedRecord(forKey key: any CodingKey) -> ProbeRecord {
    let nested = ProbeRecord()
    record.setField(key.stringValue, .record(nested))
    return nested
  }
}
