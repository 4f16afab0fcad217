/// What ``TraceReader/nextReplayLine()`` read: the few fields of an action or a mutation that
/// a reduce replay needs, or any other event whole.
///
/// A line of the recorder's shape is read as ``TraceReader/next()`` reads it, with the same
/// checks and errors, but its ``TraceEvent`` is not made: a replay step then moves a few
/// words instead of an event of a few hundred bytes.
package enum ReplayLine {
  /// An action: its id and label.
  case action(id: Int, label: String)
  /// A mutation: ``TraceReader/lastMutation()`` gives it whole.
  case mutation(Mutation)
  /// An event of another kind, as ``TraceReader/next()`` returns it.
  indirect case event(TraceEvent)

  /// The fields of a mutation a reduce replay reads at every step.
  package struct Mutation {
    /// The event's `seq`.
    package var sequence: Int
    /// The mutation's label.
    package var label: String
    /// The mutation's encoding, or `nil` when its type is not Codable.
    package var value: JSONValue?
    /// The action behind it, if any.
    package var action: Int?
    /// The hash of the state after it.
    package var stateHash: TraceHash
  }
}
