import Foundation

/// Whether two proportions differ: `before` of `beforeTotal` against `after` of `afterTotal`,
/// a 2×2 table tested two-sided.
///
/// Fisher's exact test when the table is small (an expected cell below 5), else the pooled
/// two-proportion z-test; both give the p-value of the table as observed and the least
/// p-value any table with the same margins could give (for Tarone's trim of the family).
struct ProportionTest: Sendable, Hashable {
  /// The smallest expected cell for which the z-test is used.
  static let normalApproximationMinimum = 5.0

  var before: Int
  var beforeTotal: Int
  var after: Int
  var afterTotal: Int

  /// Whether Fisher's exact test is used.
  var isExact: Bool {
    let total = Double(beforeTotal) + Double(afterTotal)
    guard total > 0 else { return true }
    let column = Double(before) + Double(after)
    let smallerRow = Double(min(beforeTotal, afterTotal))
    let smallerColumn = min(column, total - column)
    return smallerRow * smallerColumn / total < Self.normalApproximationMinimum
  }

  /// The two-sided p-value of the table as observed.
  var pValue: Double { pValue(ofBefore: before) }

  /// The least p-value a table with these margins can have: its most extreme one's.
  var minimumPValue: Double {
    let (low, high) = support
    return min(pValue(ofBefore: low), pValue(ofBefore: high))
  }

  /// The counts `before` can take with the margins fixed.
  private var support: (Int, Int) {
    let column = before + after
    return (max(0, column - afterTotal), min(beforeTotal, column))
  }

  private func pValue(ofBefore value: Int) -> Double {
    guard beforeTotal > 0, afterTotal > 0 else { return 1 }
    return isExact ? fisher(value) : normal(value)
  }

  /// Fisher's exact test: the probability of every table at most as likely as this one.
  private func fisher(_ value: Int) -> Double {
    let (low, high) = support
    guard low < high else { return 1 }
    let column = before + after
    let total = beforeTotal + afterTotal
    let base = Self.logChoose(total, column)
    func logProbability(_ x: Int) -> Double {
      Self.logChoose(beforeTotal, x) + Self.logChoose(afterTotal, column - x) - base
    }
    // Ties within a relative 1e-7, as R's fisher.test counts them.
    let observed = logProbability(value) + 1e-7
    var sum = 0.0
    for x in low...high {
      let probability = logProbability(x)
      if probability <= observed { sum += exp(probability) }
    }
    return min(1, sum)
  }

  /// The pooled two-proportion z-test, two-sided.
  private func normal(_ value: Int) -> Double {
    let n1 = Double(beforeTotal)
    let n2 = Double(afterTotal)
    let column = Double(before + after)
    let pooled = column / (n1 + n2)
    let error = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
    guard error > 0 else { return 1 }
    let z = (Double(value) / n1 - (column - Double(value)) / n2) / error
    return min(1, erfc(abs(z) / 2.0.squareRoot()))
  }

  private static func logChoose(_ n: Int, _ k: Int) -> Double {
    lgamma(Double(n) + 1) - lgamma(Double(k) + 1) - lgamma(Double(n - k) + 1)
  }
}
