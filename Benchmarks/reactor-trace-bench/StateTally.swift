/// What one state observer consumed: how many states, a checksum of a value taken from each,
/// and how many were flagged, so that a lost, repeated or reordered state shows in the
/// verification.
///
/// Its counts are touched on the main actor only, each access instantaneous: no dynamic
/// exclusivity checks, which the optimizer leaves in some observers and not in others (it
/// would make the same observers cost more in one child than in another).
@MainActor
final class StateTally {
  /// The states received, the replayed initial one included.
  @exclusivity(unchecked) var count = 0
  /// The sum of the value the observer read from every state received.
  @exclusivity(unchecked) var checksum = 0
  /// The states the observer flagged (for the counter-concat scenario: those loading).
  @exclusivity(unchecked) var flagged = 0
}
