import Testing

@testable import ReactorJSON

@Suite("Diffing with what the encoder knows of arrays of Ints")
struct IntegerArrayChangeTests {
  /// A state whose arrays of Ints sit in objects the encoder puts in key order (declared out
  /// of it), one of them nested and others in a dictionary, so that the arrays move after
  /// they are written.
  private struct State: Encodable {
    struct Inner: Encodable {
      var zulu: [Int]
      var alpha = 0
    }

    /// Two members out of key order, the second the larger: it moves to the front.
    struct Tail: Encodable {
      var zeta = 0
      var beta: [Int]
    }

    var values: [Int]
    var counter = 0
    var inner: Inner
    var tail: Tail?
    var table: [String: [Int]]
    var small: [Int]
  }

  /// The operations the diff writes with the encoder's knowledge, the ones it writes
  /// without, and the tree diff's, the first two in `memory`, kept from one diff to the next
  /// as the recorder keeps it.
  private func diffs(
    _ old: [UInt8], _ new: [UInt8], arrays: [IntegerArrayChange],
    memory: inout CanonicalJSONDiff.Memory
  ) throws -> (known: String?, plain: String?, tree: String) {
    func write(_ arrays: [IntegerArrayChange]) -> String? {
      var bytes = Array("[".utf8)
      let count = old.withUnsafeBufferPointer { old in
        new.withUnsafeBufferPointer { new in
          CanonicalJSONDiff.write(
            from: old, to: new, into: &bytes, arrays: arrays, memory: &memory)
        }
      }
      return count.map { _ in String(decoding: bytes, as: UTF8.self) }
    }
    var tree = Array("[".utf8)
    _ = try JSONValue(parsing: old).writeDiff(to: JSONValue(parsing: new), into: &tree)
    return (write(arrays), write([]), String(decoding: tree, as: UTF8.self))
  }

  @Test func changedElementsOfArraysThatMoveDiffAsTheTreesDo() throws {
    var generator = SeededGenerator(seed: 44)
    func below(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
    var state = State(
      values: Array(0..<1_000), inner: State.Inner(zulu: Array(repeating: 7, count: 300)),
      table: ["b": Array(0..<200), "a": Array(repeating: -1, count: 129)], small: [1, 2, 3])
    state.tail = State.Tail(beta: Array(repeating: 5, count: 256))
    let encoder = CanonicalJSONEncoder()
    var old: [UInt8] = []
    try encoder.encode(state, into: &old)
    var mark = encoder.lastValue
    var memory = CanonicalJSONDiff.Memory()
    var known = 0
    for step in 0..<600 {
      state.counter += 1 + below(20) * 1_000
      switch below(8) {
      case 0:
        // At a block's edges, growing a digit or turning negative.
        let index = [0, 63, 64, 127, 128, 999][below(6)]
        state.values[index] = [-1, 10, 99_999, Int.min][below(4)]
      case 1:
        for _ in 0..<(1 + below(3)) { state.values[below(1_000)] += 1 }
      case 2:
        state.inner.zulu[below(300)] = below(1_000_000)
        state.inner.alpha += 1
      case 3:
        state.table["b"]![below(200)] -= 3
        state.table["a"]![128] = below(50)
      case 4:
        state.values[below(1_000)] = below(10)
        state.table["b"]![below(200)] = below(10)
      case 5:
        state.small.append(step)
        state.tail!.beta[below(256)] = below(1_000)
        state.tail!.zeta += 1
      case 6:
        break  // Only the counter: the same arrays, the same storage.
      default:
        state.values[below(1_000)] *= 10
      }
      var new: [UInt8] = []
      try encoder.encode(state, into: &new)
      #expect(try new == JSONValueEncoder().encode(state).serialized, "step \(step)")
      let arrays = encoder.integerArrayChanges(since: mark)
      if !arrays.isEmpty { known += 1 }
      let result = try diffs(old, new, arrays: arrays, memory: &memory)
      #expect(result.known == result.tree, "step \(step)")
      #expect(result.plain == result.tree, "step \(step)")
      old = new
      mark = encoder.lastValue
    }
    #expect(known == 600)
  }

  @Test func runsOfEqualBlocksAcrossWordsOfBitsDiffAsTheTreesDo() throws {
    // 9,000 elements: 141 blocks, their bits in three words; changes in the blocks at the
    // words' edges (63, 64, 127, 128) and the last one, alone or together.
    struct Long: Encodable {
      var counter = 0
      var values = Array(0..<9_000)
    }
    let encoder = CanonicalJSONEncoder()
    var state = Long()
    var old: [UInt8] = []
    try encoder.encode(state, into: &old)
    var mark = encoder.lastValue
    var memory = CanonicalJSONDiff.Memory()
    let edges = [0, 63 * 64, 64 * 64 - 1, 64 * 64, 127 * 64 + 5, 128 * 64, 8_999]
    for step in 0..<40 {
      state.counter = step
      state.values[edges[step % edges.count]] += 1_000
      if step % 3 == 0 { state.values[edges[(step / 3) % edges.count]] -= 7 }
      var new: [UInt8] = []
      try encoder.encode(state, into: &new)
      let arrays = encoder.integerArrayChanges(since: mark)
      #expect(arrays.count == 1)
      let result = try diffs(old, new, arrays: arrays, memory: &memory)
      #expect(result.known == result.tree, "step \(step)")
      old = new
      mark = encoder.lastValue
    }
  }

  @Test func anArrayIsKnownOnlyBetweenTwoValuesInARowOfOneEncoder() throws {
    let encoder = CanonicalJSONEncoder()
    let other = CanonicalJSONEncoder()
    var state = State(
      values: Array(0..<1_000), inner: State.Inner(zulu: []), table: [:], small: [])
    var bytes: [UInt8] = []
    try encoder.encode(state, into: &bytes)
    let first = encoder.lastValue
    state.values[500] = -5
    try encoder.encode(state, into: &bytes)
    let known = encoder.integerArrayChanges(since: first)
    #expect(known.count == 1)
    // `values` sorts last: its `[` moved there after it was written.
    let text = String(decoding: bytes, as: UTF8.self)
    let prefix = #"{"counter":0,"inner":{"alpha":0,"zulu":[]},"small":[],"table":{},"values":"#
    #expect(text.hasPrefix(prefix))
    #expect(known.first?.oldOffset == prefix.utf8.count)
    #expect(known.first?.newOffset == prefix.utf8.count)
    // All blocks but the eighth (elements 448–511) are equal.
    #expect(known.first?.equalBlocks == [0xFFFF & ~(1 << 7)])
    // Element 500 changed alone in its block: where it started in the old bytes, from the `[`.
    let oldStart = 1 + (0..<500).map { String($0).utf8.count + 1 }.reduce(0, +)
    #expect(known.first?.changedElement == .init(index: 500, oldStart: oldStart))
    // Not since a value two back, nor one of another encoder.
    try encoder.encode(state, into: &bytes)
    #expect(encoder.integerArrayChanges(since: first).isEmpty)
    try other.encode(state, into: &bytes)
    #expect(encoder.integerArrayChanges(since: other.lastValue).isEmpty)
    #expect(encoder.integerArrayChanges(since: nil).isEmpty)
  }

  @Test func anElementThatChangedAloneInItsBlockIsNamedWithWhereItWas() throws {
    // At a block's first and last element, the array's last, growing or losing digits and
    // turning negative; two changes in one block name neither.
    struct Values: Encodable { var values = Array(0..<300) }
    let encoder = CanonicalJSONEncoder()
    var state = Values()
    var old: [UInt8] = []
    try encoder.encode(state, into: &old)
    var mark = encoder.lastValue
    let changes: [([Int: Int], Int?)] = [
      ([64: 123_456], 64), ([127: -1], 127), ([299: 7], 299), ([0: 10], 0),
      ([130: 1, 131: 2], nil), ([5: 0, 200: 99], 5),
    ]
    for (step, (change, named)) in changes.enumerated() {
      for (index, value) in change { state.values[index] = value }
      var new: [UInt8] = []
      try encoder.encode(state, into: &new)
      #expect(try new == JSONValueEncoder().encode(state).serialized, "step \(step)")
      let known = encoder.integerArrayChanges(since: mark)
      #expect(known.count == 1, "step \(step)")
      let element = known.first?.changedElement
      #expect(element?.index == named, "step \(step)")
      if let element, case .array(let values)? = try JSONValue(parsing: old)["values"] {
        // Where the element's old bytes start, from the `[` (at offset 10, after `{"values":`).
        let start = 10 + element.oldStart
        #expect(old[start - 1] == UInt8(ascii: element.index == 0 ? "[" : ","))
        let number = old[start...].prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "]") }
        #expect(Array(number) == values[element.index].serialized, "step \(step)")
      }
      old = new
      mark = encoder.lastValue
    }
  }

  @Test func anArrayFormattedBecauseTheBytesBeforeDoNotHoldItHasNoBlockKnownUnchanged() {
    // Three values: the second copies the first's unchanged blocks and knows them; the third
    // is given bytes before that do not hold the array, so it is formatted, and keeps none of
    // the second's bits.
    var cache = IntegerArrayCache()
    var changed = Array(0..<300)
    var first = OutputBytes()
    var second = OutputBytes()
    var third = OutputBytes()
    defer {
      first.deallocate()
      second.deallocate()
      third.deallocate()
    }
    cache.startValue()
    cache.write(changed, to: &first, previousValue: UnsafeBufferPointer(start: nil, count: 0))
    changed[10] = -1
    cache.startValue()
    cache.write(changed, to: &second, previousValue: UnsafeBufferPointer(first.written))
    // Five blocks; all but the first unchanged.
    #expect(cache.changes().first?.equalBlocks == [0b11110])
    let unrelated = [UInt8](repeating: UInt8(ascii: "x"), count: second.count)
    cache.startValue()
    unrelated.withUnsafeBufferPointer { cache.write(changed, to: &third, previousValue: $0) }
    #expect(Array(third.written) == Array(second.written))
    #expect(cache.changes().allSatisfy { $0.equalBlocks.allSatisfy { $0 == 0 } })
  }

  @Test func aValueLeftToTheTreeEncoderHasNoArraysKnown() throws {
    /// Asks for its coding path, which only the tree encoder answers.
    struct AsksForItsPath: Encodable {
      var values: [Int]
      var asks: Bool

      enum CodingKeys: String, CodingKey { case values }

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(values, forKey: .values)
        if asks { _ = container.codingPath }
      }
    }
    let encoder = CanonicalJSONEncoder()
    var bytes: [UInt8] = []
    try encoder.encode(AsksForItsPath(values: Array(0..<300), asks: false), into: &bytes)
    let first = encoder.lastValue
    #expect(first != nil)
    try encoder.encode(AsksForItsPath(values: Array(1..<301), asks: true), into: &bytes)
    #expect(encoder.lastValue == nil)
    #expect(encoder.integerArrayChanges(since: first).isEmpty)
    let second = encoder.lastValue
    try encoder.encode(AsksForItsPath(values: Array(2..<302), asks: false), into: &bytes)
    #expect(encoder.integerArrayChanges(since: second).isEmpty)
  }
  @Test func anArrayIsWrittenRightWhateverTheValuesBeforeItWere() throws {
    // One encoder, values whose arrays of Ints come and go, change length, move, or sit in a
    // value left to the tree encoder: each value's bytes are the tree encoder's, whether its
    // arrays are copied from the value before or formatted.
    struct Pair: Encodable {
      var zeta: [Int]
      var alpha: [Int]
    }
    struct AsksForItsPath: Encodable {
      var values: [Int]

      enum CodingKeys: String, CodingKey { case values }

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(values, forKey: .values)
        _ = container.codingPath
      }
    }
    let long = Array(0..<300)
    var changed = long
    changed[200] = -7
    let values: [any Encodable] = [
      Pair(zeta: long, alpha: Array(repeating: 1, count: 200)),
      Pair(zeta: changed, alpha: Array(repeating: 1, count: 200)),
      ["only": 3],
      Pair(zeta: changed, alpha: Array(repeating: 2, count: 200)),
      Pair(zeta: Array(changed.prefix(250)), alpha: Array(repeating: 2, count: 200)),
      AsksForItsPath(values: long),
      Pair(zeta: long, alpha: Array(repeating: 2, count: 200)),
      Pair(zeta: Array(repeating: 2, count: 200), alpha: long),
      long,
      changed,
    ]
    let encoder = CanonicalJSONEncoder()
    for (index, value) in values.enumerated() {
      var bytes: [UInt8] = []
      try encoder.encode(value, into: &bytes)
      #expect(try bytes == JSONValueEncoder().encode(value).serialized, "value \(index)")
      #expect(try encoder.hash(value) == TraceHash(of: bytes), "value \(index)")
    }
  }
}
