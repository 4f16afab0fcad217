import ReactorTracing

/// The size of the state-large scenario's state encoded whole, as a trace snapshot stores it:
/// what recording would cost per step if it encoded the full state every time.
@MainActor
enum FullStateSize {
  /// The mean size, over every state the scenario's `count` mutations produced, of the state
  /// encoded as compact JSON.
  ///
  /// The size is the initial state's encoding, then followed step by step: incrementing one
  /// element changes the size by the change in its number of digits. The result is checked
  /// against the real encoding of the final state.
  /// - Parameters:
  ///   - count: The number of mutations (element `k % width` incremented at step `k`).
  ///   - finalState: The state the reactor ended with.
  ///   - verification: Where a mismatch is reported.
  /// - Returns: The mean size in bytes.
  /// - Throws: ``BenchFailure/verification(scenario:reason:)`` when the computed size of the
  ///   final state differs from its encoding.
  static func meanBytes(
    count: Int, finalState: LargeStateReactor.State, by verification: Verification
  ) throws(BenchFailure) -> Double {
    let width = LargeStateReactor.width
    var values = LargeStateReactor.State().values
    var size = try encodedSize(LargeStateReactor.State(), by: verification)
    var total = 0
    for step in 0..<count {
      let index = step % width
      size += digits(values[index] + 1) - digits(values[index])
      size += digits(step + 1) - digits(step)
      values[index] += 1
      total += size
    }
    try verification.expect(
      "the computed size of the final state", size,
      equals: try encodedSize(finalState, by: verification))
    return count == 0 ? Double(size) : Double(total) / Double(count)
  }

  private static func encodedSize(
    _ state: LargeStateReactor.State, by verification: Verification
  ) throws(BenchFailure) -> Int {
    do {
      return try JSONValueEncoder().encode(state).serialized.count
    } catch {
      throw .verification(scenario: verification.scenario, reason: "the state does not encode")
    }
  }

  private static func digits(_ value: Int) -> Int {
    var digits = value < 0 ? 2 : 1
    var rest = value.magnitude / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    return digits
  }
}
