/// The unkeyed container of a probing decoder: it holds one element, so a loop over it
/// decodes exactly one, and it never refuses another decode, so code that decodes a fixed
/// number of elements gets them all.
struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
  let frame: ProbeFrame
  let record: ProbeRecord
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(frame: ProbeFrame, record: ProbeRecord, codingPath: [any CodingKey]) {
    self.frame = frame
    self.record = record
    self.codingPath = codingPath
  }

  var count: Int? { nil }

  var isAtEnd: Bool { currentIndex > 0 }

  mutating func decodeNil() throws -> Bool { false }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try element(type)
  }

  mutating func decode(_ type: String.Type) throws -> String {
    try element(type)
  }

  mutating func decode(_ type: Double.Type) throws -> Double {
    try element(type)
  }

  mutating func decode(_ type: Float.Type) throws -> Float {
    try element(type)
  }

  mutating func decode(_ type: Int.Type) throws -> Int {
    try element(type)
  }

  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try element(type)
  }

  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try element(type)
  }

  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try element(type)
  }

  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try element(type)
  }

  mutating func decode(_ type: Int128.Type) throws -> Int128 {
    try element(type)
  }

  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try element(type)
  }

  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try element(type)
  }

  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try element(type)
  }

  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try element(type)
  }

  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try element(type)
  }

  mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
    try element(type)
  }

  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
    elementIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? {
    elementIfPresent(type)
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try element(type)
  }

  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    elementIfPresent(type)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let nested = nextRecord()
    return KeyedDecodingContainer(
      ProbeKeyedContainer<NestedKey>(
        frame: frame,
        record: nested.record,
        codingPath: codingPath + [nested.key],
        caseKey: nil
      )
    )
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let nested = nextRecord()
    nested.record.usesUnkeyedContainer = true
    return ProbeUnkeyedContainer(
      frame: frame,
      record: nested.record,
      codingPath: codingPath + [nested.key]
    )
  }

  mutating func superDecoder() throws -> any Decoder {
    let nested = nextRecord()
    return ProbeDecoder(
      frame: frame,
      record: nested.record,
      codingPath: codingPath + [nested.key],
      caseKey: nil
    )
  }

  private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
    currentIndex += 1
    return try frame.decode(type) { record.appendElement(.schema($0)) }
  }

  private mutating func elementIfPresent<T: Decodable>(_ type: T.Type) -> T? {
    currentIndex += 1
    record.appendElement(.schema(.optional(frame.schema(of: type))))
    return nil
  }

  private mutating func nextRecord() -> (record: ProbeRecord, key: ProbeCodingKey) {
    let nested = ProbeRecord()
    record.appendElement(.record(nested))
    defer { currentIndex += 1 }
    return (nested, ProbeCodingKey(intValue: currentIndex))
  }
}
