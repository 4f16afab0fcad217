/// Benjamini–Hochberg over a family of discrete tests, trimmed first as Tarone proposed and
/// Gilbert (2005) applied to the false discovery rate: a test that could not reach
/// significance whatever its counts (its least possible p-value is above the threshold) does
/// not count in the family.
enum FalseDiscovery {
  /// The adjusted p-value (q-value) of each test, `nil` for those trimmed.
  ///
  /// - Parameters:
  ///   - pValues: Each test's p-value.
  ///   - minimumPValues: Each test's least possible p-value, with its margins.
  ///   - alpha: The false discovery rate to hold.
  /// - Returns: One entry per test; a test is significant when its entry is at most `alpha`.
  static func adjusted(
    pValues: [Double], minimumPValues: [Double], alpha: Double
  ) -> [Double?] {
    let count = pValues.count
    guard count > 0 else { return [] }
    // Tarone: the least K with at most K tests able to reach alpha / K.
    let minimums = minimumPValues.sorted()
    var family = count
    for k in 1...count {
      let able = Self.countAtMost(alpha / Double(k), in: minimums)
      if able <= k {
        family = k
        break
      }
    }
    let threshold = alpha / Double(family)
    let kept = pValues.indices.filter { minimumPValues[$0] <= threshold }
    var result = [Double?](repeating: nil, count: count)
    let size = Double(kept.count)
    let order = kept.sorted { pValues[$0] < pValues[$1] }
    var running = 1.0
    for (rank, index) in order.enumerated().reversed() {
      running = min(running, pValues[index] * size / Double(rank + 1))
      result[index] = min(1, running)
    }
    return result
  }

  /// How many of the sorted `values` are at most `limit`.
  private static func countAtMost(_ limit: Double, in values: [Double]) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) / 2
      if values[middle] <= limit { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
