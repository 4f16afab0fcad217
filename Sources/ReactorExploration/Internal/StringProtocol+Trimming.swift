extension StringProtocol {
  /// The text without leading and trailing whitespace.
  var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
