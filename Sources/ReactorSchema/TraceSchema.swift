public import ReactorCore

/// The fingerprint of a reactor's `Action`, `Mutation` and `State` types that a trace header
/// carries, so that a replay can say which cases or fields changed before it decodes anything.
///
/// ```swift
/// let schema = TraceSchema(of: CounterReactor.self)
/// // Later, against the schema a trace recorded:
/// for change in schema.changes(from: recorded) {
///   print(change)  // Action: case 'reset' was added
/// }
/// ```
///
/// Building one probes each type's `init(from:)` (see ``TypeFingerprint``); do it once per
/// recording.
public struct TraceSchema: Sendable, Hashable {
  /// The fingerprint of the reactor's `Action`.
  public var action: TypeFingerprint
  /// The fingerprint of the reactor's `Mutation`.
  public var mutation: TypeFingerprint
  /// The fingerprint of the reactor's `State`.
  public var state: TypeFingerprint

  /// A schema of these fingerprints.
  public init(action: TypeFingerprint, mutation: TypeFingerprint, state: TypeFingerprint) {
    self.action = action
    self.mutation = mutation
    self.state = state
  }

  /// Fingerprints three types, which need not be `Codable`.
  /// - Parameters:
  ///   - action: The reactor's `Action`.
  ///   - mutation: The reactor's `Mutation`.
  ///   - state: The reactor's `State`.
  public init<Action, Mutation, State>(
    action: Action.Type,
    mutation: Mutation.Type,
    state: State.Type
  ) {
    self.init(
      action: TypeFingerprint(of: action),
      mutation: TypeFingerprint(of: mutation),
      state: TypeFingerprint(of: state)
    )
  }

  /// Fingerprints a reactor's `Action`, `Mutation` and `State`.
  /// - Parameter reactor: The reactor's type.
  public init<R: Reactor>(of reactor: R.Type) {
    self.init(action: R.Action.self, mutation: R.Mutation.self, state: R.State.self)
  }
}
