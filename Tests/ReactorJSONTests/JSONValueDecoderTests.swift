import ReactorJSON
import Testing

@Suite("Decoding from JSON values")
struct JSONValueDecoderTests {
  private typealias Fixtures = JSONFixtures
  private let encoder = JSONValueEncoder()
  private let decoder = JSONValueDecoder()

  /// Encodes `value`, serializes and parses it, and decodes the result.
  private func roundTrip<T: Codable>(_ value: T) throws -> T {
    let encoded = try encoder.encode(value)
    let decoded = try decoder.decode(T.self, from: encoded)
    let reparsed = try JSONValue(parsing: encoded.serializedString)
    #expect(reparsed == encoded)
    #expect(try decoder.decode(T.self, from: reparsed).encodedForComparison(encoder) == encoded)
    return decoded
  }

  /// The `DecodingError` decoding `type` from `value` throws.
  private func decodingError<T: Decodable>(_ type: T.Type, from value: JSONValue) -> DecodingError?
  {
    do {
      _ = try decoder.decode(type, from: value)
      return nil
    } catch let error as DecodingError {
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  // MARK: - Round trips

  @Test func nestedStructsRoundTrip() throws {
    #expect(try roundTrip(Fixtures.Board.sample) == Fixtures.Board.sample)
  }

  @Test func enumsWithAndWithoutPayloadsRoundTrip() throws {
    let actions: [Fixtures.CounterAction] = [
      .increase, .setLoading(true), .move(dx: -1, dy: 2), .rename("n", reason: nil),
      .rename("m", reason: "why"), .batch([.batch([]), .increase]),
    ]
    for action in actions {
      #expect(try roundTrip(action) == action)
    }
    #expect(try roundTrip(actions) == actions)
  }

  @Test func rawValueEnumsRoundTrip() throws {
    #expect(try roundTrip(Fixtures.Priority.high) == .high)
    #expect(try roundTrip(Fixtures.Level.debug) == .debug)
  }

  @Test func dictionariesRoundTrip() throws {
    let byName = ["a": 1, "b": -2, "": 0, "é": 3]
    #expect(try roundTrip(byName) == byName)
    let byNumber = [1: "one", -7: "minus seven", 100: ""]
    #expect(try roundTrip(byNumber) == byNumber)
    let nested: [String: [Int: [String: Bool]]] = ["x": [1: ["t": true]], "y": [:]]
    #expect(try roundTrip(nested) == nested)
  }

  @Test func optionalsAndNestedOptionalsRoundTrip() throws {
    let values: [Int?] = [1, nil, 3]
    #expect(try roundTrip(values) == values)
    let item = Fixtures.TodoItem(
      title: "t", isDone: false, priority: .low, tags: [], estimate: nil, note: "n")
    #expect(try roundTrip(item) == item)
    #expect(try roundTrip(Int?.none) == nil)
  }

  @Test func handWrittenContainersRoundTrip() throws {
    #expect(try roundTrip(Fixtures.Manual.sample) == Fixtures.Manual.sample)
  }

  @Test func subclassesRoundTripThroughSuperDecoders() throws {
    let circle = Fixtures.Circle(name: "c", radius: 1.25)
    #expect(try roundTrip(circle) == circle)
    let square = Fixtures.Square(name: "s", side: 4)
    #expect(try roundTrip(square) == square)
  }

  @Test func allIntegerTypesRoundTrip() throws {
    #expect(try roundTrip(Fixtures.AllIntegers()) == Fixtures.AllIntegers())
    var maxima = Fixtures.AllIntegers()
    maxima.int = .max
    maxima.int64 = .max
    maxima.uint = 0
    maxima.uint64 = UInt64(Int64.max) + 1
    #expect(try roundTrip(maxima) == maxima)
    #expect(try roundTrip(Int128(-3)) == -3)
    #expect(try roundTrip(UInt128(UInt64.max)) == UInt128(UInt64.max))
  }

  @Test func floatsAndNonFiniteNumbersRoundTrip() throws {
    let values = [
      Fixtures.Floats(float: 0.1, double: 0.1),
      Fixtures.Floats(float: .greatestFiniteMagnitude, double: .greatestFiniteMagnitude),
      Fixtures.Floats(float: .leastNonzeroMagnitude, double: .leastNonzeroMagnitude),
      Fixtures.Floats(float: -0.0, double: 1e300),
      Fixtures.Floats(float: .infinity, double: -.infinity),
      Fixtures.Floats(float: .nan, double: .nan),
    ]
    for value in values {
      let decoded = try decoder.decode(Fixtures.Floats.self, from: encoder.encode(value))
      #expect(decoded == value || (value.float == 0 && decoded.float == 0))
    }
  }

  @Test func randomValuesRoundTripThroughTheCoders() throws {
    var generator = SeededGenerator(seed: 99)
    for _ in 0..<300 {
      let value = JSONValue.random(using: &generator, depth: 0)
      let wrapped = JSONWrapper(value: value)
      let decoded = try decoder.decode(JSONWrapper.self, from: encoder.encode(wrapped))
      #expect(decoded.value == value)
    }
  }

  // MARK: - Numbers

  @Test func integersDecodeFromIntegralDoubles() throws {
    #expect(try decoder.decode(Int.self, from: .double(3.0)) == 3)
    #expect(try decoder.decode(UInt8.self, from: .double(-0.0)) == 0)
    #expect(try decoder.decode(Int64.self, from: .double(-9_223_372_036_854_775_808)) == .min)
    #expect(try decoder.decode(UInt64.self, from: .uint(.max)) == .max)
    #expect(try decoder.decode([Int16].self, from: [1, .double(2)]) == [1, 2])
  }

  @Test func fractionalNumbersAreNotIntegers() {
    let error = decodingError([String: Int].self, from: ["count": 3.5])
    guard case .dataCorrupted(let context)? = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["count"])
    #expect(context.debugDescription == "Number 3.5 does not fit in Int.")
  }

  @Test func numbersOutOfRangeAreRejected() {
    let cases: [(any Decodable.Type, JSONValue)] = [
      (Int8.self, 128), (UInt.self, -1), (Int64.self, .uint(UInt64.max)),
      (UInt32.self, 4_294_967_296),
      (Int.self, 1e19), (Float.self, 1e300), (Int.self, .double(.greatestFiniteMagnitude)),
    ]
    for (type, value) in cases {
      guard case .dataCorrupted? = decodingError(type, from: value) else {
        Issue.record("\(type) from \(value) did not fail as data corrupted")
        continue
      }
    }
  }

  @Test func doublesDecodeFromAnyNumberAndNonFiniteStrings() throws {
    #expect(try decoder.decode(Double.self, from: 7) == 7)
    #expect(try decoder.decode(Double.self, from: .uint(UInt64.max)) == 0x1p64)
    #expect(try decoder.decode(Double.self, from: "Infinity") == .infinity)
    #expect(try decoder.decode(Double.self, from: "-Infinity") == -.infinity)
    #expect(try decoder.decode(Double.self, from: "NaN").isNaN)
    #expect(try decoder.decode(Float.self, from: "NaN").isNaN)
    #expect(try decoder.decode(Float.self, from: .double(0.1)) == 0.1)
    guard case .typeMismatch? = decodingError(Double.self, from: "nan") else {
      Issue.record("a string other than the non-finite names decoded as a Double")
      return
    }
  }

  // MARK: - Errors

  @Test func missingKeysAreReportedWithThePathToTheirContainer() {
    let value: JSONValue = ["tasks": [["title": "a", "isDone": true, "priority": "low"]]]
    let error = decodingError([String: [Fixtures.TodoItem]].self, from: value)
    guard case .keyNotFound(let key, let context)? = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(key.stringValue == "tags")
    #expect(context.codingPath.map(\.stringValue) == ["tasks", "Index 0"])
  }

  @Test func wrongTypesAreReportedWithThePathToTheValue() {
    let value: JSONValue = [
      "x": 1, "y": 2, "z": 3,
    ]
    guard
      case .typeMismatch(let type, let context)? = decodingError([Fixtures.Point].self, from: value)
    else {
      Issue.record("an object decoded as an array")
      return
    }
    #expect(ObjectIdentifier(type) == ObjectIdentifier([Any].self))
    #expect(context.codingPath.isEmpty)

    let nested: JSONValue = ["grid": [[], [["x": 1, "y": "2", "z": 3]]]]
    let error = decodingError([String: [[Fixtures.Point]]].self, from: nested)
    guard case .typeMismatch(let mismatched, let nestedContext)? = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(ObjectIdentifier(mismatched) == ObjectIdentifier(Int.self))
    #expect(nestedContext.codingPath.map(\.stringValue) == ["grid", "Index 1", "Index 0", "y"])
    #expect(nestedContext.debugDescription == "Expected a number but found a string.")
  }

  @Test func nullForANonOptionalIsAMissingValue() {
    let error = decodingError(Fixtures.Point.self, from: ["x": 1, "y": nil, "z": 3])
    guard case .valueNotFound(let type, let context)? = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
    #expect(context.codingPath.map(\.stringValue) == ["y"])
    guard case .valueNotFound? = decodingError([Fixtures.Point].self, from: [nil]) else {
      Issue.record("null decoded as a Point")
      return
    }
    guard case .valueNotFound? = decodingError(Fixtures.Point.self, from: nil) else {
      Issue.record("null decoded as a keyed container")
      return
    }
  }

  @Test func missingKeysAndNullsDecodeAsNil() throws {
    let value: JSONValue = [
      "title": "t", "isDone": true, "priority": "high", "tags": [], "note": nil,
    ]
    let item = try decoder.decode(Fixtures.TodoItem.self, from: value)
    #expect(item.note == nil && item.estimate == nil)
    #expect(
      try decoder.decode(KeyProbe.self, from: ["present": 1, "null": nil]).report
        == KeyProbe.expected)
  }

  @Test func errorsInsideCustomDecodersCarryTheirCodingPath() {
    let value: JSONValue = ["outer": ["key": [0]]]
    guard
      case .dataCorrupted(let context)? = decodingError(Fixtures.FailingHolder.self, from: value)
    else {
      Issue.record("the failing decoder did not fail")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["outer", "key", "Index 0"])
  }

  @Test func unkeyedContainersReportTheirPositionAndEnd() throws {
    let probe = try decoder.decode(ArrayProbe.self, from: [1, nil, "x"])
    #expect(
      probe.report == [
        "count 3", "index 0", "1", "nil", "not nil", "x", "at end", "end error at Index 3",
      ])
  }
}

/// Wraps a `JSONValue` to encode and decode it through every container kind.
private struct JSONWrapper: Codable {
  var value: JSONValue

  init(value: JSONValue) { self.value = value }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: Key.self) {
      value = .object(
        JSONObject(
          try container.allKeys.map { key in
            (key.stringValue, try container.decode(JSONWrapper.self, forKey: key).value)
          }))
    } else if var container = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      while !container.isAtEnd { elements.append(try container.decode(JSONWrapper.self).value) }
      value = .array(elements)
    } else {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        value = .null
      } else if let bool = try? container.decode(Bool.self) {
        value = .bool(bool)
      } else if let string = try? container.decode(String.self) {
        value = .string(string)
      } else if let integer = try? container.decode(Int64.self) {
        value = .int(integer)
      } else if let integer = try? container.decode(UInt64.self) {
        value = .uint(integer)
      } else {
        value = .double(try container.decode(Double.self))
      }
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch value {
    case .object(let object):
      var container = encoder.container(keyedBy: Key.self)
      for (key, member) in object.members {
        try container.encode(JSONWrapper(value: member), forKey: Key(stringValue: key))
      }
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(JSONWrapper(value: element)) }
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let bool):
      var container = encoder.singleValueContainer()
      try container.encode(bool)
    case .int(let integer):
      var container = encoder.singleValueContainer()
      try container.encode(integer)
    case .uint(let integer):
      var container = encoder.singleValueContainer()
      try container.encode(integer)
    case .double(let double):
      var container = encoder.singleValueContainer()
      try container.encode(double)
    case .string(let string):
      var container = encoder.singleValueContainer()
      try container.encode(string)
    }
  }
}

/// Reports what a keyed container says about present, `null` and missing keys.
private struct KeyProbe: Decodable {
  static let expected = [
    "keys null,present", "contains present", "contains null", "missing absent",
    "nil null", "nil absent", "not nil present", "ifPresent nil nil 1",
  ]

  var report: [String] = []

  private enum Keys: String, CodingKey { case present, null, absent }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    report.append("keys " + container.allKeys.map(\.rawValue).joined(separator: ","))
    if container.contains(.present) { report.append("contains present") }
    if container.contains(.null) { report.append("contains null") }
    if !container.contains(.absent) { report.append("missing absent") }
    if try container.decodeNil(forKey: .null) { report.append("nil null") }
    if try container.decodeNil(forKey: .absent) { report.append("nil absent") }
    if try !container.decodeNil(forKey: .present) { report.append("not nil present") }
    let null = try container.decodeIfPresent(Int.self, forKey: .null)
    let absent = try container.decodeIfPresent(String.self, forKey: .absent)
    let present = try container.decodeIfPresent(Int.self, forKey: .present)
    report.append(
      "ifPresent \(String(describing: null)) \(String(describing: absent)) \(present ?? 0)")
  }
}

/// Reports what an unkeyed container says as it is read to its end.
private struct ArrayProbe: Decodable {
  var report: [String] = []

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    report.append("count \(container.count ?? -1)")
    report.append("index \(container.currentIndex)")
    report.append("\(try container.decode(Int.self))")
    report.append(try container.decodeNil() ? "nil" : "not nil")
    report.append(try container.decodeNil() ? "nil" : "not nil")
    report.append(try container.decode(String.self))
    if container.isAtEnd { report.append("at end") }
    do {
      _ = try container.decode(Int.self)
    } catch DecodingError.valueNotFound(_, let context) {
      report.append("end error at " + (context.codingPath.last?.stringValue ?? "?"))
    }
  }
}

extension Decodable where Self: Encodable {
  /// This value encoded, for comparing decoded values that are not `Equatable`.
  fileprivate func encodedForComparison(_ encoder: JSONValueEncoder) throws -> JSONValue {
    try encoder.encode(self)
  }
}
