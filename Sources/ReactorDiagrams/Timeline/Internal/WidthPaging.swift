/// How a timeline of columns is split into pages no wider than a given width: the rule the
/// single-reactor timeline and the session timeline share.
enum WidthPaging {
  /// The fewest ranges of `count` columns, in order, each at most `maximumWidth` points wide
  /// by `width`, a range holding at least one column; `[0..<0]` when there are none.
  ///
  /// Widths only grow with more columns, so the longest range that fits is found by
  /// bisection.
  static func ranges(
    count: Int, maximumWidth: Double, width: (Range<Int>) -> Double
  ) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    while start < count {
      var low = start + 1
      var high = count
      while low < high {
        let middle = (low + high + 1) / 2
        if width(start..<middle) <= maximumWidth { low = middle } else { high = middle - 1 }
      }
      ranges.append(start..<low)
      start = low
    }
    return ranges.isEmpty ? [0..<0] : ranges
  }
}
