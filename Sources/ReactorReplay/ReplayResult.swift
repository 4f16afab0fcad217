public import ReactorTracing

/// What a replay found: how many steps it checked and where it first differed, if anywhere.
///
/// In a Swift Testing test:
///
/// ```swift
/// #expect(try replay(trace, through: CounterReactor()).divergence == nil)
/// ```
///
/// or, to see the diff in the failure, `#expect(result.failureMessage == nil)`.
public struct ReplayResult: Sendable, Hashable {
  /// How many mutations matched before the replay stopped.
  public var stepsChecked: Int
  /// The first difference, or `nil` when the replay matched the trace.
  public var divergence: ReplayDivergence?
  /// What the trace's reader noticed without failing.
  ///
  /// A torn last line, a missing end line, effects still running when the recording
  /// stopped. A match with warnings is a match of an incomplete trace.
  public var warnings: [TraceWarning]
  /// How the reactor's types changed since the recording, in ways this trace survives: a
  /// case added, a case removed that the trace does not use, a field added to `State`.
  public var schemaChanges: [SchemaChange]
  /// How many events the recorder dropped (``TraceEvent/Gap``s) in the part replayed: not a
  /// divergence, but the trace is incomplete and the steps around a gap were not checked.
  public var droppedEventCount: Int
  /// The effects played back from the recording instead of run, in the order the trace
  /// starts them (those already running first); empty unless effects were
  /// ``ReplayEffects/recorded``.
  public var playedEffects: [PlayedEffect] = []

  /// A result.
  public init(
    stepsChecked: Int, divergence: ReplayDivergence?, warnings: [TraceWarning] = [],
    schemaChanges: [SchemaChange] = [], droppedEventCount: Int = 0
  ) {
    self.stepsChecked = stepsChecked
    self.divergence = divergence
    self.warnings = warnings
    self.schemaChanges = schemaChanges
    self.droppedEventCount = droppedEventCount
  }

  /// Whether the trace replayed had no gap.
  public var isComplete: Bool { droppedEventCount == 0 }

  /// Whether the replay matched the trace.
  public var isMatch: Bool { divergence == nil }

  /// A multi-line report of the divergence for a test failure, or `nil` when the replay
  /// matched.
  public var failureMessage: String? {
    guard let divergence else { return nil }
    return "replay diverged after \(stepsChecked) matching "
      + (stepsChecked == 1 ? "mutation" : "mutations") + ", at \(divergence)"
  }
}
