/// Checks a scenario's result outside the timed part, failing loudly on the first mismatch.
struct Verification {
  /// The scenario named in failures.
  let scenario: String

  /// Fails unless `actual` equals `expected`.
  /// - Parameters:
  ///   - what: What was counted or computed, as the failure names it.
  ///   - actual: The value the run produced.
  ///   - expected: The value it must produce.
  /// - Throws: ``BenchFailure/verification(scenario:reason:)`` when they differ.
  func expect<Value: Equatable>(
    _ what: String, _ actual: Value, equals expected: Value
  ) throws(BenchFailure) {
    guard actual == expected else {
      throw .verification(scenario: scenario, reason: "\(what) is \(actual), expected \(expected)")
    }
  }

  /// Fails unless `condition` holds.
  /// - Parameters:
  ///   - condition: What must be true.
  ///   - reason: Why the run is wrong when it is not.
  /// - Throws: ``BenchFailure/verification(scenario:reason:)`` when it does not hold.
  func require(_ condition: Bool, _ reason: @autoclosure () -> String) throws(BenchFailure) {
    guard condition else { throw .verification(scenario: scenario, reason: reason()) }
  }
}
