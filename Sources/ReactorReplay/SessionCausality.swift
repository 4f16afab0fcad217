/// How the actions and mutations of a session resolve through their causes: to a user action
/// (an action sent from outside every reactor) or a named external stream, or not at all (a
/// cause that points nowhere, an origin with no action).
public struct SessionCausality: Hashable, Sendable {
  /// Actions whose causes reach a user action or a named stream.
  public var resolvedActions = 0
  /// Actions whose causes do not.
  public var unresolvedActions = 0
  /// Mutations whose causes reach a user action or a named stream.
  public var resolvedMutations = 0
  /// Mutations whose causes do not.
  public var unresolvedMutations = 0

  /// No actions or mutations yet.
  public init() {}

  /// Whether every action and mutation resolves.
  public var isComplete: Bool { unresolvedActions == 0 && unresolvedMutations == 0 }

  mutating func count(resolved: Bool, isMutation: Bool) {
    switch (resolved, isMutation) {
    case (true, false): resolvedActions += 1
    case (false, false): unresolvedActions += 1
    case (true, true): resolvedMutations += 1
    case (false, true): unresolvedMutations += 1
    }
  }
}
