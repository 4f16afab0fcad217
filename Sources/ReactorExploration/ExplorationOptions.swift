public import ReactorStateMachines

/// The bounds and settings of an exploration.
public struct ExplorationOptions: Sendable, Hashable {
  /// The most actions on any path from the initial state; `nil` for no bound.
  public var maximumDepth: Int?
  /// The most states to collect before stopping.
  public var maximumStates: Int
  /// The most wall-clock time to spend; `nil` for no bound.
  public var timeLimit: Duration?
  /// The most virtual time effects may run after each action before the next one is sent.
  public var settleLimit: Duration
  /// What makes two states the same.
  public var identity: StateIdentity

  /// Options; the defaults explore up to 10,000 states, letting effects run 10 virtual
  /// seconds after each action.
  public init(
    maximumDepth: Int? = nil, maximumStates: Int = 10_000, timeLimit: Duration? = nil,
    settleLimit: Duration = .seconds(10), identity: StateIdentity = .wholeState
  ) {
    self.maximumDepth = maximumDepth
    self.maximumStates = maximumStates
    self.timeLimit = timeLimit
    self.settleLimit = settleLimit
    self.identity = identity
  }
}
