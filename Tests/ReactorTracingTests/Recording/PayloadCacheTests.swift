import Testing

@testable import ReactorTracing

extension TracingTests {
  @Suite struct PayloadCacheLookup {
    private enum Step: Sendable {
      case move(x: Int32, y: Int32)
      case reset
    }

    private static func entry(_ label: String) -> PayloadCache.Entry {
      PayloadCache.Entry(json: nil, label: label)
    }

    @Test func everyStoredValueIsFoundUpToTheCapacityAndNoneAfter() {
      var cache = PayloadCache()
      let total = PayloadCache.capacity + 100
      for index in 0..<total { cache.store(Self.entry("\(index)"), for: index * 1_000_003) }
      #expect(cache.count == PayloadCache.capacity)
      for index in 0..<total {
        let found = cache.entry(for: index * 1_000_003)?.label
        #expect(found == (index < PayloadCache.capacity ? "\(index)" : nil), "\(index)")
      }
      #expect(cache.entry(for: 7) == nil)
    }

    @Test func valuesThatDifferInTheirSecondWordOrTheirCaseAreDifferentKeys() {
      var cache = PayloadCache()
      cache.store(Self.entry("a"), for: Step.move(x: 1, y: 2))
      cache.store(Self.entry("b"), for: Step.move(x: 2, y: 1))
      cache.store(Self.entry("c"), for: Step.reset)
      cache.store(Self.entry("d"), for: (UInt64(1), UInt64(2)))
      cache.store(Self.entry("e"), for: (UInt64(1), UInt64(3)))
      #expect(cache.entry(for: Step.move(x: 1, y: 2))?.label == "a")
      #expect(cache.entry(for: Step.move(x: 2, y: 1))?.label == "b")
      #expect(cache.entry(for: Step.reset)?.label == "c")
      #expect(cache.entry(for: (UInt64(1), UInt64(2)))?.label == "d")
      #expect(cache.entry(for: (UInt64(1), UInt64(3)))?.label == "e")
      #expect(cache.entry(for: (UInt64(1), UInt64(4))) == nil)
    }

    @Test func storingAValueAgainReplacesItsEntryWithoutCountingItTwice() {
      var cache = PayloadCache()
      cache.store(Self.entry("old"), for: 42)
      cache.store(Self.entry("new"), for: 42)
      #expect(cache.count == 1)
      #expect(cache.entry(for: 42)?.label == "new")
    }

    @Test func theMembersReadInPlaceAreTheEntrysThroughGrowthAndReplacement() {
      var cache = PayloadCache()
      func members(_ value: Int) -> [UInt8]? {
        var found: [UInt8]?
        let isStored = cache.withMembers(for: value) { found = Array($0) }
        #expect(isStored == (found != nil))
        return found
      }
      // Labels of every length, stored through several doublings of the table.
      for index in 0..<600 {
        cache.store(Self.entry(String(repeating: "x", count: index % 37)), for: index)
      }
      for index in 0..<600 {
        #expect(members(index) == cache.entry(for: index)?.members, "\(index)")
      }
      #expect(members(600) == nil)
      // Replaced by a shorter entry, then by a longer one.
      cache.store(Self.entry("s"), for: 36)
      #expect(members(36) == Self.entry("s").members)
      cache.store(Self.entry(String(repeating: "long", count: 20)), for: 36)
      #expect(members(36) == Self.entry(String(repeating: "long", count: 20)).members)
      #expect(members(35) == Self.entry(String(repeating: "x", count: 35)).members)
      #expect(cache.count == 600)
    }

    @Test func valuesThatHoldReferencesOrTakeMoreThan16BytesAreNeverKept() {
      var cache = PayloadCache()
      cache.store(Self.entry("s"), for: "text")
      cache.store(Self.entry("w"), for: (1, 2, 3))
      #expect(cache.count == 0)
      #expect(cache.entry(for: "text") == nil)
      #expect(!cache.withMembers(for: "text") { _ in Issue.record("no members") })
      #expect(cache.entry(for: (1, 2, 3)) == nil)
    }
  }
}
