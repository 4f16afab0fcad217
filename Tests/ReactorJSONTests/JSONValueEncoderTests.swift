import ReactorJSON
import Testing

@Suite("Encoding to JSON values")
struct JSONValueEncoderTests {
  private typealias Fixtures = JSONFixtures
  private let encoder = JSONValueEncoder()

  private func json(_ value: some Encodable) throws -> String {
    try encoder.encode(value).serializedString
  }

  @Test func structsEncodeAsObjectsSortedByKey() throws {
    let item = Fixtures.TodoItem(
      title: "Write", isDone: false, priority: .high, tags: ["a", "b"], estimate: 1.5, note: nil)
    let value = try encoder.encode(item)
    #expect(value.objectValue?.keys == ["estimate", "isDone", "priority", "tags", "title"])
    #expect(
      value.serializedString
        == #"{"estimate":1.5,"isDone":false,"priority":"high","tags":["a","b"],"title":"Write"}"#)
  }

  @Test func enumCasesEncodeAsSynthesizedObjects() throws {
    #expect(try json(Fixtures.CounterAction.increase) == #"{"increase":{}}"#)
    #expect(try json(Fixtures.CounterAction.setLoading(true)) == #"{"setLoading":{"_0":true}}"#)
    #expect(try json(Fixtures.CounterAction.move(dx: 1, dy: -2)) == #"{"move":{"dx":1,"dy":-2}}"#)
    #expect(
      try json(Fixtures.CounterAction.rename("a", reason: nil)) == #"{"rename":{"_0":"a"}}"#)
    #expect(
      try json(Fixtures.CounterAction.batch([.increase, .setLoading(false)]))
        == #"{"batch":{"_0":[{"increase":{}},{"setLoading":{"_0":false}}]}}"#)
  }

  @Test func rawValueEnumsEncodeAsTheirRawValues() throws {
    #expect(try encoder.encode(Fixtures.Priority.low) == "low")
    #expect(try encoder.encode(Fixtures.Level.error) == 3)
  }

  @Test func topLevelSingleValuesEncodeDirectly() throws {
    #expect(try encoder.encode(42) == 42)
    #expect(try encoder.encode("text") == "text")
    #expect(try encoder.encode(true) == true)
    #expect(try encoder.encode(Int?.none) == nil)
    #expect(try encoder.encode([1, 2, 3]) == [1, 2, 3])
  }

  @Test func dictionariesEncodeAsObjects() throws {
    #expect(try json(["b": 2, "a": 1, "c": 3]) == #"{"a":1,"b":2,"c":3}"#)
    #expect(try json([10: "ten", 2: "two"]) == #"{"10":"ten","2":"two"}"#)
    #expect(try json([String: Int]()) == "{}")
  }

  @Test func nilOptionalsAreOmittedAndExplicitNilsKept() throws {
    #expect(try json(Fixtures.Manual.sample).contains(#""flags":[true,null,false]"#))
    let item = Fixtures.TodoItem(
      title: "", isDone: true, priority: .low, tags: [], estimate: nil, note: nil)
    #expect(try json(item) == #"{"isDone":true,"priority":"low","tags":[],"title":""}"#)
  }

  @Test func handWrittenContainersNestAsWritten() throws {
    #expect(
      try json(Fixtures.Manual.sample)
        == #"{"body":{"corners":[[1,2,{"meta":3}],[4,5,{"meta":6}]],"flags":[true,null,false],"#
        + #""meta":{"k":"v"}},"id":7,"parent":{"x":0,"y":0,"z":1}}"#)
  }

  @Test func subclassesEncodeTheirSuperclassUnderSuper() throws {
    let circle = Fixtures.Circle(name: "c", radius: 2.5)
    #expect(try json(circle) == #"{"radius":2.5,"super":{"name":"c"}}"#)
  }

  @Test func subclassesSharingTheEncoderWriteOneObject() throws {
    let square = Fixtures.Square(name: "s", side: 3)
    #expect(try json(square) == #"{"name":"s","side":3}"#)
  }

  @Test func aKeyEncodedTwiceKeepsItsLastValue() throws {
    #expect(try json(Fixtures.RepeatedKey()) == #"{"a":{"a":true},"b":"last"}"#)
  }

  @Test func allIntegerTypesEncodeExactly() throws {
    let value = try encoder.encode(Fixtures.AllIntegers())
    guard case .uint(UInt64.max) = value["uint64"], case .uint(UInt64(UInt.max)) = value["uint"],
      case .int(Int64.min) = value["int64"], case .int(Int64(Int.min)) = value["int"]
    else {
      Issue.record("got \(value)")
      return
    }
    #expect(value["int8"] == -128)
    #expect(value["int16"] == -32_768)
    #expect(value["int32"] == .int(Int64(Int32.min)))
    #expect(value["uint8"] == 255)
    #expect(value["uint16"] == 65_535)
    #expect(value["uint32"] == .int(Int64(UInt32.max)))
    #expect(try encoder.encode(UInt64(Int64.max)) == .int(Int64.max))
  }

  @Test func wideIntegersEncodeWhenTheyFitSixtyFourBits() throws {
    #expect(try encoder.encode(Int128(-5)) == -5)
    #expect(try encoder.encode(UInt128(UInt64.max)) == .uint(UInt64.max))
    #expect(throws: EncodingError.self) { try encoder.encode(Int128(UInt64.max) + 1) }
    #expect(throws: EncodingError.self) { try encoder.encode([UInt128.max]) }
  }

  @Test func floatsEncodeAsTheirShortestDecimal() throws {
    #expect(try encoder.encode(Float(0.1)) == .double(0.1))
    #expect(try json(Float(0.1)) == "0.1")
    #expect(try json(Float(1) / 3) == "0.33333334")
    #expect(try json(Float.greatestFiniteMagnitude) == "3.4028235e+38")
    #expect(try json(Float.leastNonzeroMagnitude) == "1e-45")
    #expect(try json(Double(0.1)) == "0.1")
  }

  @Test func nonFiniteNumbersEncodeAsStrings() throws {
    #expect(try encoder.encode(Double.nan) == "NaN")
    #expect(try encoder.encode(Double.infinity) == "Infinity")
    #expect(try encoder.encode(-Double.infinity) == "-Infinity")
    #expect(try encoder.encode(Float.nan) == "NaN")
    #expect(try encoder.encode([-Float.infinity]) == ["-Infinity"])
  }

  @Test func aTopLevelValueThatEncodesNothingIsInvalid() {
    #expect {
      try encoder.encode(Fixtures.Nothing())
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.isEmpty && context.debugDescription.contains("Nothing")
    }
  }

  @Test func nestedValuesThatEncodeNothingAreEmptyObjects() throws {
    #expect(try json([Fixtures.Nothing()]) == "[{}]")
    #expect(try json(["a": Fixtures.Nothing()]) == #"{"a":{}}"#)
  }

  @Test func codingPathsLeadToTheFailingValue() {
    let holder = Fixtures.FailingHolder(outer: ["key": [Fixtures.Failing()]])
    #expect {
      try encoder.encode(holder)
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["outer", "key", "Index 0"]
        && context.codingPath.last?.intValue == 0
    }
    let inArray = Fixtures.FailingInArray(
      items: [Fixtures.Point(x: 1, y: 2, z: 3)], failing: [.init()])
    #expect {
      try encoder.encode(inArray)
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["failing", "Index 0"]
    }
  }

  @Test func encodedValuesSerializeCanonically() throws {
    let value = try encoder.encode(Fixtures.Board.sample)
    let reparsed = try JSONValue(parsing: value.serializedString)
    #expect(reparsed == value)
    #expect(reparsed.canonicalHash == value.canonicalHash)
  }
}

extension JSONFixtures.Manual {
  static let sample = JSONFixtures.Manual(
    id: 7,
    corners: [JSONFixtures.Point(x: 1, y: 2, z: 3), JSONFixtures.Point(x: 4, y: 5, z: 6)],
    meta: ["k": "v"], flags: [true, nil, false], parent: JSONFixtures.Point(x: 0, y: 0, z: 1))
}

extension JSONFixtures.Board {
  static let sample = JSONFixtures.Board(
    name: "Board \u{1F4CB}",
    tasks: [
      JSONFixtures.TodoItem(
        title: "Write \"tests\"", isDone: true, priority: .high, tags: ["json", "swift"],
        estimate: 0.5, note: nil),
      JSONFixtures.TodoItem(
        title: "Ship", isDone: false, priority: .low, tags: [], estimate: nil, note: "later\n"),
    ],
    counts: ["open": 1, "done": 1, "": 0],
    labels: [1: "one", -2: "minus two", 30: "thirty"],
    grid: [[JSONFixtures.Point(x: 1, y: 2, z: 3)], [], [JSONFixtures.Point(x: -1, y: 0, z: 9)]],
    selected: nil,
    level: .error,
    lastAction: .batch([.move(dx: 3, dy: 4), .rename("x", reason: "because"), .increase]),
    nested: ["a": [1, nil, 3], "b": []])
}
