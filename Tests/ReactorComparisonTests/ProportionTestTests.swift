import Testing

@testable import ReactorComparison

@Suite struct ProportionTestTests {
  @Test func fishersExactTestMatchesRsFisherTestOnSmallTables() {
    // R: fisher.test(matrix(c(3, 1, 1, 3), 2))$p.value == 0.4857143
    let test = ProportionTest(before: 3, beforeTotal: 4, after: 1, afterTotal: 4)
    #expect(test.isExact)
    #expect(abs(test.pValue - 0.4857143) < 1e-6)
    // scipy.stats.fisher_exact([[0, 8], [8, 0]]).pvalue == 0.0001554001554001554
    let extreme = ProportionTest(before: 0, beforeTotal: 8, after: 8, afterTotal: 8)
    #expect(extreme.isExact)
    #expect(abs(extreme.pValue - 0.0001554001554001554) / 0.0001554001554001554 < 1e-9)
    #expect(extreme.minimumPValue == extreme.pValue)
  }

  @Test func largeTablesUseThePooledTwoProportionZTest() {
    // 4,000 of 10,000 against 5,000 of 10,000: z = 14.21, two-sided p = 7.568e-46 (scipy).
    let test = ProportionTest(before: 4000, beforeTotal: 10000, after: 5000, afterTotal: 10000)
    #expect(!test.isExact)
    #expect(abs(test.pValue - 7.568144119453144e-46) / 7.568144119453144e-46 < 1e-6)
    #expect(test.minimumPValue < test.pValue)
  }

  @Test func aTableWithEqualSharesHasPValueOne() {
    #expect(ProportionTest(before: 50, beforeTotal: 100, after: 50, afterTotal: 100).pValue > 0.99)
    #expect(ProportionTest(before: 0, beforeTotal: 100, after: 0, afterTotal: 100).pValue == 1)
  }

  @Test func benjaminiHochbergAdjustsAsRsPAdjustDoes() {
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") == c(0.02, 0.04, 0.04, 0.02)
    let q = FalseDiscovery.adjusted(
      pValues: [0.01, 0.04, 0.03, 0.005], minimumPValues: [0, 0, 0, 0], alpha: 0.05)
    #expect(q.map { $0! }.map { ($0 * 1000).rounded() / 1000 } == [0.02, 0.04, 0.04, 0.02])
  }

  @Test func testsThatCannotReachSignificanceLeaveTheFamily() {
    // Ten tests that could never reach 0.05 / 1 do not dilute the one that can.
    let q = FalseDiscovery.adjusted(
      pValues: [0.001] + Array(repeating: 1, count: 10),
      minimumPValues: [1e-9] + Array(repeating: 0.5, count: 10), alpha: 0.05)
    #expect(q[0] == 0.001)
    #expect(q.dropFirst().allSatisfy { $0 == nil })
  }
}
