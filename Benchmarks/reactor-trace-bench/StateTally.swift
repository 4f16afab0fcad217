/// What one state observer consumed: how many states, a checksum of a value taken from each,
/// and how many were flagged, so that a lost, repeated or reordered state shows in the
/// verification.
@MainActor
final class StateTally {
  /// The states received, the replayed initial one included.
  var count = 0
  /// The sum of the value the observer read from every state received.
  var checksum = 0
  /// The states the observer flagged (for the counter-concat scenario: those loading).
  var flagged = 0
}
