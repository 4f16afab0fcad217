import Foundation

/// Whether two proportions differ: `before` of `beforeTotal` against `after` of `afterTotal`,
/// a 2×2 table tested two-sided.
///
/// Fisher's exact test when the table is small (a margin of at most 1,000, or an expected
/// cell below 5), else the pooled two-proportion z-test, whose approximation is close there; both give the p-value of the table as observed and the least
/// p-value any table with the same margins could give (for Tarone's trim of the family).
struct ProportionTest: Sendable, Hashable {
  /// The smallest expected cell for which the z-test is used.
  static let normalApproximationMinimum = 5.0

  /// The largest margin for which Fisher's exact test is always used.
  static let exactMargin = 1_000

  var before: Int
  var beforeTotal: Int
  var after: Int
  var afterTotal: Int
  /// Whether Fisher's exact test is used.
  let isExact: Bool
  /// The two-sided p-value of the table as observed.
  let pValue: Double
  /// The least p-value a table with these margins can have: its most extreme one's.
  let minimumPValue: Double

  /// Tests `before` of `beforeTotal` against `after` of `afterTotal`.
  init(before: Int, beforeTotal: Int, after: Int, afterTotal: Int) {
    self.before = before
    self.beforeTotal = beforeTotal
    self.after = after
    self.afterTotal = afterTotal
    let total = Double(beforeTotal) + Double(afterTotal)
    let column = before + after
    let smallerRow = Double(min(beforeTotal, afterTotal))
    let smallerColumn = min(Double(column), total - Double(column))
    isExact =
      total == 0 || min(smallerRow, smallerColumn) <= Double(Self.exactMargin)
      || smallerRow * smallerColumn / total < Self.normalApproximationMinimum
    // The counts `before` can take with the margins fixed.
    let low = max(0, column - afterTotal)
    let high = min(beforeTotal, column)
    guard beforeTotal > 0, afterTotal > 0, low < high else {
      (pValue, minimumPValue) = (1, 1)
      return
    }
    if isExact {
      let probabilities = Self.hypergeometric(
        low: low, high: high, rows: (beforeTotal, afterTotal), column: column)
      func fisher(_ value: Int) -> Double {
        // Ties within a relative 1e-7, as R's fisher.test counts them.
        let limit = probabilities[value - low] + 1e-7
        var sum = 0.0
        for probability in probabilities where probability <= limit { sum += exp(probability) }
        return min(1, sum)
      }
      pValue = fisher(before)
      minimumPValue = min(fisher(low), fisher(high))
    } else {
      let test = (beforeTotal, afterTotal, column)
      pValue = Self.normal(before, test)
      minimumPValue = min(Self.normal(low, test), Self.normal(high, test))
    }
  }

  /// The log-probability of each count from `low` to `high` before, the margins fixed:
  /// the first from log-gammas, the others by the ratio of neighbours.
  private static func hypergeometric(
    low: Int, high: Int, rows: (Int, Int), column: Int
  ) -> [Double] {
    let (n1, n2) = (Double(rows.0), Double(rows.1))
    let k = Double(column)
    var result = [
      logChoose(rows.0, low) + logChoose(rows.1, column - low)
        - logChoose(rows.0 + rows.1, column)
    ]
    result.reserveCapacity(high - low + 1)
    var x = Double(low)
    for _ in low..<high {
      result.append(result.last! + log((n1 - x) * (k - x) / ((x + 1) * (n2 - k + x + 1))))
      x += 1
    }
    return result
  }

  /// The pooled two-proportion z-test of `value` before, two-sided.
  private static func normal(_ value: Int, _ table: (Int, Int, Int)) -> Double {
    let (n1, n2) = (Double(table.0), Double(table.1))
    let column = Double(table.2)
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
