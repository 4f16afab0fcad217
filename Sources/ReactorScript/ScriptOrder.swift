/// The one order in which a script's inputs reach a reactor, whoever runs them (`record`,
/// mutate replay, a generated test): by time; at equal times scripted events before
/// actions, as a change made elsewhere lands before the user's next tap; otherwise in the
/// order given.
public enum ScriptOrder {
  /// `items` in script order; stable.
  /// - Parameters:
  ///   - items: The inputs, in the order written or recorded.
  ///   - time: When an input is due.
  ///   - isAction: Whether an input is an action (else an event for the fakes).
  /// - Returns: The inputs as they are to be run.
  public static func sorted<Item>(
    _ items: [Item], time: (Item) -> Duration, isAction: (Item) -> Bool
  ) -> [Item] {
    items.enumerated().sorted { lhs, rhs in
      (time(lhs.element), isAction(lhs.element) ? 1 : 0, lhs.offset)
        < (time(rhs.element), isAction(rhs.element) ? 1 : 0, rhs.offset)
    }.map(\.element)
  }
}
