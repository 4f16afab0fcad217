import Testing

@testable import ReactorJSON

@Suite("Diffing canonical JSON bytes")
struct CanonicalJSONDiffTests {
  /// The memory the diffs of a test work in, one after the other, as the recorder's do.
  private var memory = CanonicalJSONDiff.Memory()

  /// The operations `CanonicalJSONDiff` writes between the canonical bytes of two values, and
  /// the ones the tree diff writes; `nil` for the first when it gave up.
  private mutating func both(_ old: JSONValue, _ new: JSONValue) -> (bytes: String?, tree: String) {
    let prefix = Array("[".utf8)
    var tree = prefix
    let treeCount = old.writeDiff(to: new, into: &tree)
    var bytes = prefix
    let count = old.serialized.withUnsafeBufferPointer { oldBytes in
      new.serialized.withUnsafeBufferPointer { newBytes in
        CanonicalJSONDiff.write(from: oldBytes, to: newBytes, into: &bytes, memory: &memory)
      }
    }
    #expect(count == nil || count == treeCount)
    return (
      count.map { _ in String(decoding: bytes, as: UTF8.self) },
      String(decoding: tree, as: UTF8.self)
    )
  }

  @Test mutating func everyKindOfChangeIsWrittenAsTheTreeDiffWritesIt() {
    let cases: [(JSONValue, JSONValue)] = [
      (["a": 1, "b": 2], ["a": 1, "b": 3]),
      (["a": 1, "b": 2], ["b": 2, "c": [1, 2]]),
      (["list": [1, 2, 3]], ["list": [1, 2, 3, 4, 5]]),
      (["list": [1, 2, 3, 4]], ["list": [1, 2]]),
      (["list": [1, 2, 3, 4]], ["list": [9, 9, 9, 4]]),
      (["list": [["x": 1], ["x": 2]]], ["list": [["x": 1], ["x": 3, "y": nil]]]),
      ([1, 2], ["a": 1]),
      ("text", 4.5),
      (["n": 1], ["n": 1.0]),
      (["n": 1e21], ["n": 1.5e21]),
      (["s": "a \"quoted\" \\ line\n"], ["s": "é ✓"]),
      (["": true, "a": [], "b": [:]], ["": false, "a": [nil], "b": ["k": []]]),
      (["a": ["b": ["c": [1, 2, 3]]]], ["a": ["b": ["c": [1, 2, 3], "d": "e"]]]),
      ([:], [:]),
      ([], [1]),
      (["same": [1, [2, 3]]], ["same": [1, [2, 3]]]),
    ]
    for (old, new) in cases {
      let result = both(old, new)
      #expect(result.bytes == result.tree, "\(old) → \(new)")
    }
  }

  @Test func theFirstDifferingByteOfTwoWordsIsFoundInEitherByteOrder() {
    let old: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    for changed in 0...8 {
      var new = old
      if changed < 8 { new[changed] = 99 }
      func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      }
      // As this machine loads the bytes, and as a machine of the other order would.
      let difference = word(old) ^ word(new)
      let isLittleEndian = 1.littleEndian == 1
      #expect(
        CanonicalJSONDiff.equalLeadingBytes(difference, isLittleEndian: isLittleEndian)
          == changed)
      #expect(
        CanonicalJSONDiff.equalLeadingBytes(
          difference.byteSwapped, isLittleEndian: !isLittleEndian) == changed)
    }
  }

  @Test mutating func aKeyWithAnEscapeLeavesTheDiffToTheTrees() {
    var bytes = Array("[".utf8)
    let oldValue: JSONValue = ["a\"b": 1]
    let newValue: JSONValue = ["a\"b": 2]
    let old = oldValue.serialized
    let new = newValue.serialized
    let count = old.withUnsafeBufferPointer { old in
      new.withUnsafeBufferPointer { new in
        CanonicalJSONDiff.write(from: old, to: new, into: &bytes, memory: &memory)
      }
    }
    #expect(count == nil)
    #expect(bytes == Array("[".utf8))
    // The memory of a diff that gave up serves the next one.
    let next = both(["a": [1, ["b": 2]]], ["a": [1, ["b": 3]]])
    #expect(next.bytes == next.tree)
  }

  @Test mutating func changedNumbersAndLiteralsAreWrittenAsTheTreeDiffWritesThem() {
    let values: [JSONValue] = (0..<1000).map { .int(Int64($0 % 17) - 3) }
    let cases: [(JSONValue, JSONValue)] = [
      (.int(5), .int(6)),
      (["counter": 1, "values": .array(values)], ["counter": 1, "values": .array(values)]),
    ]
    var changes =
      cases + [
        (.array([1, 2, 3]), .array([4, 5, 3])),
        (.array([["a": 1], ["a": 2]]), .array([["a": 5], ["a": 6]])),
        (
          ["a": 1, "b": ["c": true, "d": nil], "e": .array([1, 2])],
          ["a": 2, "b": ["c": false, "d": 0.5], "e": .array([1, 3])]
        ),
      ]
    for index in [0, 1, 499, 998, 999] {
      var changed = values
      changed[index] = [.int(12_345), nil, .bool(true), .double(-0.5)][index % 4]
      changes.append(
        (["counter": 1, "values": .array(values)], ["counter": 2, "values": .array(changed)]))
      changes.append(
        (.array([.array(values), .array(values)]), .array([.array(changed), .array(changed)])))
      changes.append(
        (["a": ["b": .array(values)], "z": nil], ["a": ["b": .array(changed)], "z": nil]))
      changes.append((.array([.array(values), "x"]), .array([.array(changed), "x"])))
    }
    for (old, new) in changes {
      let result = both(old, new)
      #expect(result.bytes == result.tree)
    }
  }

  @Test mutating func elementsAfterRunsOfNumbersAndOtherScalarsAreFoundAtTheirIndex() {
    // Runs of integers and decimals (which the walk skips eight bytes at a time), broken by
    // an exponent, literals, strings holding digits and commas, and nested containers.
    let run: [JSONValue] = (0..<40).map { .int(Int64($0 * 37 % 1_000) - 500) }
    let breaks: [JSONValue] = [
      .double(1.5e-7), .double(-0.25), .bool(true), nil, "1,2,3", .array([1, 2]), ["k": 1],
    ]
    var values: [JSONValue] = []
    for item in breaks { values += run + [item] }
    values += run
    for index in stride(from: 0, to: values.count, by: 13) {
      var changed = values
      changed[index] = .int(987_654)
      let result = both(
        ["counter": 1, "values": .array(values)], ["counter": 2, "values": .array(changed)])
      #expect(result.bytes == result.tree, "index \(index)")
    }
  }

  @Test mutating func aChangeAfterLongStringsIsFoundAtItsPath() {
    // Strings of every length around the eight bytes the walk passes at once, before the
    // counter that changes (as in a state holding a long text) and in the keys: the same
    // operations as the trees'. Plain characters, of one byte or several, are passed eight
    // bytes at a time; an escaped quote, backslash or newline anywhere stops the walk there.
    let plain =
      (0..<20).map { String(repeating: "x", count: $0) }
      + (1..<8).map { String(repeating: "é", count: $0) }
    var escaped: [String] = []
    for length in 0..<20 {
      for place in 0...length {
        for special in ["\"", "\\", "\n"] {
          var text = plain[length]
          text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
          escaped.append(text)
        }
      }
    }
    for texts in [plain, plain + escaped] {
      let elements = JSONValue.array(texts.map { .string($0) })
      for length in [0, 7, 8, 9, 19] {
        let key = plain[length] + "notes"
        let title = JSONValue.string(plain[length])
        let result = both(
          [key: elements, "title": title, "value": 1], [key: elements, "title": title, "value": 2])
        #expect(result.bytes == result.tree, "\(texts.count) texts, key \(key)")
      }
    }
  }

  @Test mutating func randomValuesDiffAsTheTreesDo() {
    var generator = RandomJSON(seed: 7)
    var compared = 0
    for _ in 0..<2_000 {
      let old = generator.value(depth: 3)
      let new = generator.mutated(old, depth: 3)
      let result = both(old, new)
      guard let bytes = result.bytes else { continue }
      #expect(bytes == result.tree, "\(old.serializedString) → \(new.serializedString)")
      compared += 1
    }
    #expect(compared > 1_900)
  }
}

/// JSON values and changes to them, drawn from a seeded generator.
private struct RandomJSON: RandomNumberGenerator {
  private var generator: SeededGenerator

  init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

  mutating func next() -> UInt64 { generator.next() }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  mutating func scalar() -> JSONValue {
    switch below(7) {
    case 0: return nil
    case 1: return .bool(below(2) == 0)
    case 2: return .int(Int64(below(20)) - 5)
    case 3: return .double(Double(below(40)) / 4)
    case 4: return .string(["", "a", "b", "q\"uote", "é"][below(5)])
    case 5: return .int(Int64(below(3)))
    default: return .double(Double(below(3)))
    }
  }

  mutating func key() -> String { ["a", "b", "c", "ab", "", "zz", "é"][below(7)] }

  mutating func value(depth: Int) -> JSONValue {
    guard depth > 0, below(3) > 0 else { return scalar() }
    if below(2) == 0 {
      return .array((0..<below(6)).map { _ in value(depth: depth - 1) })
    }
    var object = JSONObject()
    for _ in 0..<below(5) { object.set(value(depth: depth - 1), forKey: key()) }
    return .object(object)
  }

  /// `value` with a few random changes: members added, removed or changed, elements changed,
  /// appended or dropped, or the whole value replaced.
  mutating func mutated(_ value: JSONValue, depth: Int) -> JSONValue {
    switch value {
    case .object(var object) where below(6) > 0:
      for _ in 0..<(1 + below(2)) {
        switch below(3) {
        case 0: object.set(self.value(depth: depth - 1), forKey: key())
        case 1: object[key()] = nil
        default:
          if let member = object.members.randomElement(using: &self) {
            object.set(mutated(member.value, depth: depth - 1), forKey: member.key)
          }
        }
      }
      return .object(object)
    case .array(var elements) where below(6) > 0:
      switch below(4) {
      case 0: elements.append(contentsOf: (0..<(1 + below(3))).map { _ in self.value(depth: 1) })
      case 1: elements.removeLast(min(elements.count, 1 + below(2)))
      default:
        for _ in 0..<(1 + below(3)) where !elements.isEmpty {
          let index = below(elements.count)
          elements[index] = mutated(elements[index], depth: depth - 1)
        }
      }
      return .array(elements)
    default:
      return below(4) == 0 ? value : self.value(depth: depth)
    }
  }
}
