import Testing

@testable import ReactorReplay

@Suite("The labels of recent actions")
struct LabelCacheTests {
  @Test func theLabelsOfTheLastCapacityActionsAreKeptAndOlderOnesForgotten() {
    var cache = LabelCache(capacity: 8)
    for id in 1...20 { cache.insert("action \(id)", for: id) }
    #expect((13...20).allSatisfy { cache[$0] == "action \($0)" })
    #expect((1...12).allSatisfy { cache[$0] == nil })
    #expect(cache[21] == nil)
    #expect(cache[-3] == nil)
  }

  @Test func aCapacityIsRoundedUpToAPowerOfTwo() {
    var cache = LabelCache(capacity: 5)
    for id in 1...8 { cache.insert("\(id)", for: id) }
    #expect((1...8).allSatisfy { cache[$0] == "\($0)" })
    cache.insert("9", for: 9)
    #expect(cache[1] == nil)
    #expect(cache[9] == "9")
  }
}
