import ReactorTracing

/// The divergences every mutate replay reports about mutations, in one wording: a recorded
/// mutation the replay did not produce, one it produced differently, and one the trace does
/// not have.
enum MutationDivergence {
  /// The recorded mutation at `sequence` has no counterpart in the replay.
  /// - Parameters:
  ///   - sequence: The recorded mutation's `seq`.
  ///   - line: Its line in the file.
  ///   - label: Its label.
  ///   - action: The label of the action it belongs to.
  ///   - recorded: It described, with its cause.
  /// - Returns: The divergence.
  static func missing(
    sequence: Int, line: Int?, label: String, action: String?, recorded: String
  ) -> ReplayDivergence {
    ReplayDivergence(
      sequence: sequence, line: line, mutation: label, action: action,
      reason: "the replay produced no mutation here; the trace has \(recorded)", diff: nil)
  }

  /// The recorded mutation at `sequence` differs from the replayed one in label, value or
  /// cause.
  /// - Parameters:
  ///   - sequence: The recorded mutation's `seq`.
  ///   - line: Its line in the file.
  ///   - label: Its label.
  ///   - action: The label of the action it belongs to.
  ///   - values: The recorded and the replayed value, when both were recorded.
  ///   - recorded: The recorded mutation described, with its cause.
  ///   - replayed: The replayed one described.
  /// - Returns: The divergence, with a path diff of the values when they differ.
  static func differing(
    sequence: Int, line: Int?, label: String, action: String?,
    values: (recorded: JSONValue?, replayed: JSONValue?), recorded: String, replayed: String
  ) -> ReplayDivergence {
    var diff: String?
    if let old = values.recorded, let new = values.replayed, old != new {
      diff =
        "the mutation's value (recorded → replayed):\n"
        + StateComparison.pathDiff(from: old, to: new)
    }
    return ReplayDivergence(
      sequence: sequence, line: line, mutation: label, action: action,
      reason: "the trace has \(recorded), the replay produced \(replayed)", diff: diff)
  }

  /// The replay produced a mutation beyond those the trace records.
  /// - Parameters:
  ///   - sequence: The trace's last `seq`.
  ///   - action: The label of the action the extra mutation belongs to.
  ///   - replayed: It described, with its cause.
  /// - Returns: The divergence.
  static func extra(sequence: Int, action: String?, replayed: String) -> ReplayDivergence {
    ReplayDivergence(
      sequence: sequence, line: nil, mutation: nil, action: action,
      reason: "the replay produced a mutation the trace does not have: \(replayed)", diff: nil)
  }
}
