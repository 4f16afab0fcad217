import Foundation
import ReactorExamples
import ReactorJSON
import ReactorTracing
import Testing

/// The repository's root, found from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

@Suite("Encoding straight to canonical JSON bytes")
struct CanonicalJSONEncoderTests {
  private typealias Fixtures = JSONFixtures
  private let encoder = CanonicalJSONEncoder()

  /// The bytes the canonical encoder writes and the ones the tree encoder's value serializes to.
  private func both(_ value: some Encodable) throws -> (canonical: String, tree: String) {
    var bytes: [UInt8] = [1, 2, 3]
    try encoder.encode(value, into: &bytes)
    return (
      String(decoding: bytes, as: UTF8.self), try JSONValueEncoder().encode(value).serializedString
    )
  }

  /// Whether `value` encodes directly, and the bytes of both encoders.
  private func check(_ value: some Encodable) throws -> (
    isDirect: Bool, canonical: String, tree: String
  ) {
    let (canonical, tree) = try both(value)
    return (encoder.encodesDirectly(value), canonical, tree)
  }

  /// The errors both encoders throw for `value`, described.
  private func errors(_ value: some Encodable) -> (canonical: String?, tree: String?) {
    var bytes: [UInt8] = []
    var canonical: String?
    var tree: String?
    do { try encoder.encode(value, into: &bytes) } catch { canonical = "\(error)" }
    do { _ = try JSONValueEncoder().encode(value) } catch { tree = "\(error)" }
    return (canonical, tree)
  }

  private static let board = Fixtures.Board(
    name: "Sprint \"7\"\n",
    tasks: [
      Fixtures.TodoItem(
        title: "Write", isDone: false, priority: .high, tags: ["a", "b"], estimate: 1.5, note: nil),
      Fixtures.TodoItem(
        title: "Ship", isDone: true, priority: .low, tags: [], estimate: nil, note: "é"),
    ],
    counts: ["b": 2, "a": 1, "a!": 3, "": 0, "é": 4, "z": 5],
    labels: [10: "ten", 2: "two"], grid: [[Fixtures.Point(x: 1, y: -2, z: 3)], []],
    selected: nil, level: .error, lastAction: .batch([.increase, .move(dx: 1, dy: 2)]),
    nested: ["x": [1, nil, 3]])

  /// Encodes a key twice without nesting: the last value wins.
  private struct RepeatedScalarKey: Encodable {
    enum CodingKeys: String, CodingKey { case a, b, c }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .c)
      try container.encode("first", forKey: .b)
      try container.encode(2, forKey: .a)
      try container.encode("last", forKey: .b)
    }
  }

  /// Uses nested containers one after another, each until its parent is used again.
  private struct NestedInTurn: Encodable {
    enum CodingKeys: String, CodingKey { case f, b, a, c, d, e, k }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(6, forKey: .f)
      var b = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .b)
      try b.encode(5, forKey: .e)
      var c = b.nestedContainer(keyedBy: CodingKeys.self, forKey: .c)
      try c.encode(4, forKey: .d)
      var a = container.nestedUnkeyedContainer(forKey: .a)
      var pair = a.nestedUnkeyedContainer()
      try pair.encode(1)
      var k = pair.nestedContainer(keyedBy: CodingKeys.self)
      try k.encode(2, forKey: .k)
      try a.encode(3)
    }
  }

  /// Writes to a nested container after writing to its parent again.
  private struct NestedOutOfTurn: Encodable {
    enum CodingKeys: String, CodingKey { case a, b, k, late }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var a = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
      try a.encode(1, forKey: .k)
      try container.encode(3, forKey: .b)
      try a.encode(2, forKey: .late)
    }
  }

  /// Holds a value that encodes nothing.
  private struct HoldsNothing: Encodable {
    var nothing = Fixtures.Nothing()
    var list = [Fixtures.Nothing()]
  }

  @Test func plainValuesEncodeDirectlyToTheTreeEncodersBytes() throws {
    let values: [any Encodable] = [
      Self.board, Fixtures.AllIntegers(), Fixtures.CounterAction.rename("a", reason: nil),
      Fixtures.Floats(float: 0.1, double: -1e21), Fixtures.Floats(float: .nan, double: .infinity),
      Fixtures.CounterAction.increase, Fixtures.RepeatedKey(), RepeatedScalarKey(), HoldsNothing(),
      [1, 2, 3], "text", 42, true, Int?.none,
      [String: Int](), [[String: Bool]](),
    ]
    for value in values {
      let result = try check(value)
      #expect(result.isDirect, "\(value)")
      #expect(result.canonical == result.tree)
    }
  }

  /// Holds arrays of Ints, which the encoder writes in one loop.
  private struct HoldsIntegers: Encodable {
    var values = [0, -1, 9, 10, 99, 100, -100, Int.max, Int.min, 12_345]
    var empty: [Int] = []
    var nested = [[1, 2], [], [-3]]
    var optional: [Int]? = [4]
  }

  @Test func arraysOfIntsEncodeInOneLoopToTheTreeEncodersBytes() throws {
    let values: [any Encodable] = [HoldsIntegers(), [Int](), [7], [[Int]]([[]])]
    for value in values {
      let result = try check(value)
      #expect(result.isDirect, "\(value)")
      #expect(result.canonical == result.tree)
    }
  }

  /// Checks that every state of the trace at `name` in `Traces/` decodes as `State` and
  /// encodes directly to its recorded canonical bytes and hash; returns how many states it checked.
  private func checkStates<State: Codable>(of name: String, as _: State.Type) throws -> Int {
    let reader = try TraceReader(path: repositoryRoot + "/Traces/" + name)
    var checked = 0
    while let event = try reader.next() {
      guard case .mutation(let mutation) = event.kind, case .json(let json) = reader.currentState
      else {
        continue
      }
      let state = try JSONValueDecoder().decode(State.self, from: json)
      #expect(encoder.encodesDirectly(state), "\(name) seq \(event.sequence)")
      var bytes: [UInt8] = []
      try encoder.encode(state, into: &bytes)
      #expect(bytes == json.serialized, "\(name) seq \(event.sequence)")
      #expect(try encoder.hash(state) == mutation.stateHash, "\(name) seq \(event.sequence)")
      checked += 1
    }
    return checked
  }

  @Test func everyStateOfTheExampleTracesEncodesDirectlyToItsRecordedBytesAndHash() throws {
    var checked = try checkStates(of: "counter.trace.jsonl", as: CounterReactor.State.self)
    checked += try checkStates(of: "profile.trace.jsonl", as: ProfileReactor.State.self)
    checked += try checkStates(of: "tasklist.trace.jsonl", as: TaskListReactor.State.self)
    checked += try checkStates(
      of: "github-search.trace.jsonl", as: GitHubSearchReactor.State.self)
    #expect(checked > 40)
  }

  @Test func keysSortByTheirUTF8AndTheLastOfARepeatedKeyWins() throws {
    #expect(try both(["b": 2, "a": 1, "a!": 3, "": 0]).canonical == #"{"":0,"a":1,"a!":3,"b":2}"#)
    #expect(try both(RepeatedScalarKey()).canonical == #"{"a":2,"b":"last","c":1}"#)
    #expect(try both(HoldsNothing()).canonical == #"{"list":[{}],"nothing":{}}"#)
  }

  @Test func nestedContainersUsedInTurnEncodeDirectly() throws {
    let value = NestedInTurn()
    let result = try check(value)
    #expect(result.isDirect)
    #expect(result.canonical == #"{"a":[[1,{"k":2}],3],"b":{"c":{"d":4},"e":5},"f":6}"#)
    #expect(result.canonical == result.tree)
  }

  @Test func aNestedContainerUsedAfterItsParentMovedOnFallsBack() throws {
    let result = try check(NestedOutOfTurn())
    #expect(!result.isDirect)
    #expect(result.canonical == #"{"a":{"k":1,"late":2},"b":3}"#)
    #expect(result.canonical == result.tree)
  }

  @Test func valuesUsingOtherContainersFallBackToTheTreeEncoder() throws {
    let values: [any Encodable] = [
      Fixtures.Manual(
        id: 1, corners: [Fixtures.Point(x: 1, y: 2, z: 3)], meta: ["k": "v"], flags: [true, nil],
        parent: Fixtures.Point(x: 0, y: 0, z: 0)),
      Fixtures.Circle(name: "c", radius: 2), Fixtures.Square(name: "s", side: 3),
      ["quote\"d": 1, "line\n": 2], [Int128(5)],
    ]
    for value in values {
      let result = try check(value)
      #expect(!result.isDirect, "\(value)")
      #expect(result.canonical == result.tree)
    }
  }

  @Test func encodingErrorsAreTheTreeEncodersErrors() {
    let values: [any Encodable] = [
      Fixtures.Nothing(), Fixtures.FailingHolder(outer: ["k": [Fixtures.Failing()]]),
      Fixtures.FailingInArray(items: [Fixtures.Point(x: 1, y: 2, z: 3)], failing: [.init()]),
      [UInt128.max],
    ]
    for value in values {
      let (canonical, tree) = errors(value)
      #expect(canonical != nil)
      #expect(canonical == tree)
    }
  }

  @Test func anEncoderIsReusedValueAfterValue() throws {
    var bytes: [UInt8] = []
    try encoder.encode(
      Fixtures.Manual(
        id: 1, corners: [], meta: [:], flags: [], parent: Fixtures.Point(x: 0, y: 0, z: 0)),
      into: &bytes)
    try encoder.encode(Self.board, into: &bytes)
    #expect(bytes == (try JSONValueEncoder().encode(Self.board).serialized))
    try encoder.encode(Fixtures.Point(x: 1, y: 2, z: 3), into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #"{"x":1,"y":2,"z":3}"#)
  }

  /// A large state's shape: arrays of Ints, more of them than the encoder remembers.
  private struct ManyArrays: Encodable {
    var counter = 0
    var values: [Int]
    var more: [[Int]]
  }

  @Test func arraysOfIntsChangedValueAfterValueEncodeToTheTreeEncodersBytes() throws {
    // Each value differs from the one before in a few elements (at the ends of blocks, a
    // number growing a digit or turning negative), in its length, or not at all (the same
    // storage): what the encoder copies from the previous value's bytes must still be right.
    // Spread indices, the same every run.
    func index(_ step: Int, _ salt: Int, below count: Int) -> Int {
      (step * 7_919 + salt * 104_729) % count
    }
    var state = ManyArrays(
      values: Array(0..<1_000), more: (0..<5).map { Array(repeating: $0, count: 130) })
    var bytes: [UInt8] = []
    for step in 0..<400 {
      state.counter = step
      switch step % 5 {
      case 0:
        let position = [0, 63, 64, 127, 999, index(step, 0, below: 1_000)][step % 6]
        state.values[position] = [Int.min, -7, 123_456_789, 5][step % 4]
      case 1:
        for salt in 1...3 { state.values[index(step, salt, below: 1_000)] += 1 }
        state.more[step % 5][129] -= 1
      case 2:
        if state.values.count > 1_000 {
          state.values.removeLast()
        } else {
          state.values.append(step)
        }
      case 3:
        break  // The same arrays, the same storage.
      default:
        state.more[4][index(step, 4, below: 130)] = step * 1_000
        state.values = state.values.map { $0 &+ 1 }
      }
      try encoder.encode(state, into: &bytes)
      #expect(bytes == (try JSONValueEncoder().encode(state).serialized), "step \(step)")
    }
  }

  /// Where a ``KeepsItsContainer`` keeps its container.
  private final class Kept: @unchecked Sendable {
    var container: KeyedEncodingContainer<KeepsItsContainer.CodingKeys>?
  }

  /// Keeps its container after `encode(to:)` returns, and writes to the one kept by the value
  /// before while its own is open.
  private struct KeepsItsContainer: Encodable {
    enum CodingKeys: String, CodingKey { case a, b }
    let kept: Kept
    let value: Int

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      if var earlier = kept.container { try earlier.encode(99, forKey: .b) }
      try container.encode(value, forKey: .a)
      kept.container = container
    }
  }

  @Test func aContainerKeptPastItsValueIsNeverHandedToTheNextValue() throws {
    // The encoder hands a keyed container out again only while nothing else holds it: one
    // kept by a value is not the next value's, and writing to it falls back.
    for count in 1...3 {
      let canonical = Kept()
      let tree = Kept()
      var bytes: [UInt8] = []
      try encoder.encode(
        (1...count).map { KeepsItsContainer(kept: canonical, value: $0) }, into: &bytes)
      let expected = try JSONValueEncoder().encode(
        (1...count).map { KeepsItsContainer(kept: tree, value: $0) })
      #expect(String(decoding: bytes, as: UTF8.self) == expected.serializedString, "\(count)")
    }
  }

  /// Where a ``NotesItsContainer`` notes its container's box, weakly.
  private final class WeakBox: @unchecked Sendable {
    weak var box: AnyObject?
  }

  /// Notes, weakly, the box of the keyed container it writes to.
  private struct NotesItsContainer: Encodable {
    enum CodingKeys: String, CodingKey { case a }
    let note: WeakBox

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .a)
      note.box = Mirror(reflecting: container).children.first.map { $0.value as AnyObject }
    }
  }

  @Test func anEncoderLetsGoOfTheContainersItKeptWhenItGoes() throws {
    // A kept container holds the encoder's working memory, which holds the container: without
    // the owner letting go, every encoder made and dropped (a live recorder's per batch) leaked
    // its memory, a large state's bytes included.
    let note = WeakBox()
    do {
      let encoder = CanonicalJSONEncoder()
      var bytes: [UInt8] = []
      try encoder.encode(NotesItsContainer(note: note), into: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":1}"#)
      #expect(note.box != nil)
    }
    #expect(note.box == nil)
  }

  /// A tree: values of one type nested in each other, each encoded while its parent's
  /// container is open.
  private struct Node: Encodable {
    let value: Int
    let children: [Node]
  }

  @Test func valuesNestedInValuesOfTheirTypeEncodeDirectly() throws {
    let tree = Node(
      value: 1,
      children: [
        Node(value: 2, children: [Node(value: 3, children: [])]), Node(value: 4, children: []),
      ])
    for _ in 0..<3 {
      let result = try check(tree)
      #expect(result.isDirect)
      #expect(result.canonical == result.tree)
    }
  }

  /// One member, under a key given at run time.
  private struct OneMember: Encodable {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    let key: String

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(1, forKey: Key(stringValue: key))
    }
  }

  @Test func aKeyEqualToTheOneBeforeAtItsPlaceIsWrittenWithItsOwnBytes() throws {
    // Keys are remembered at their place from one value to the next; strings that Swift calls
    // equal are not always the same bytes: the Kelvin sign equals K, the Greek question mark
    // a semicolon, the combining ring after A equals Å.
    let keys = ["K", "\u{212A}", "K", ";", "\u{037E}", "\u{00C5}", "A\u{030A}", "\u{212B}", "é"]
    for key in keys {
      let result = try check(OneMember(key: key))
      #expect(result.canonical == result.tree, "\(key.unicodeScalars.map(\.value))")
    }
  }
}
