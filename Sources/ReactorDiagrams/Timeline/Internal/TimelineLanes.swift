import ReactorTracing

/// What one reactor draws in a timeline: its actions, mutations, state changes, stream ends
/// and gaps at their columns, its effects' lifetimes, and the streams it merged.
///
/// ``TimelineAccumulator`` fills it in one event at a time, on columns shared with the other
/// reactors of the diagram; ``TimelineDiagram`` draws it as a group of lanes.
struct TimelineLanes: Sendable, Hashable {
  /// Something drawn at one column.
  enum Mark: Sendable, Hashable {
    case action(id: Int, label: String, stream: String?)
    case mutation(id: Int, label: String, cause: TraceEvent.Cause)
    /// What a mutation changed, drawn under it on the state lane.
    case stateChange(changes: [String])
    case streamEnd(stream: String, error: String?)
    /// The recorder dropped this many events here.
    case gap(dropped: Int)
  }

  /// A mark and its column.
  struct Placed: Sendable, Hashable {
    var column: Int
    var mark: Mark
  }

  /// An effect's lifetime within the window.
  struct Effect: Sendable, Hashable {
    var id: Int
    var name: String?
    var action: Int
    /// `nil` when it started before the window.
    var start: Int?
    /// `nil` when it had not ended by the window's end.
    var end: Int?
    var outcome: TraceEvent.Outcome?
    /// Whether its reactor's release ended it, while it ran: at ``end``, the last column
    /// before the release.
    var isEndedByRelease = false
  }

  /// What reading a reactor's events needs to remember between them.
  struct Reading: Sendable {
    /// Effects started and not yet ended, by id.
    var open: [Int: Effect] = [:]
    /// The state before the next mutation.
    var previous: TraceHeader.State
  }

  var marks: [Placed] = []
  var effects: [Effect] = []
  var streams: [String] = []

  /// Adds what one event of the reactor draws at `column`.
  ///
  /// - Parameters:
  ///   - kind: The event.
  ///   - column: Its column, when shown.
  ///   - isShown: Whether the event is in the window.
  ///   - state: The reactor's state after the event.
  ///   - reading: What earlier events left open.
  mutating func add(
    _ kind: TraceEvent.Kind, column: Int, isShown: Bool,
    state: @autoclosure () -> TraceHeader.State, reading: inout Reading
  ) {
    switch kind {
    case .action(let action):
      guard isShown else { break }
      var stream: String?
      if case .stream(let name) = action.source { stream = name }
      marks.append(
        Placed(column: column, mark: .action(id: action.id, label: action.label, stream: stream)))
    case .effectStarted(let start):
      reading.open[start.effect] = Effect(
        id: start.effect, name: start.name, action: start.action,
        start: isShown ? column : nil, end: nil, outcome: nil)
    case .effectEnded(let end):
      guard var effect = reading.open.removeValue(forKey: end.effect), isShown else { break }
      effect.end = column
      effect.outcome = end.outcome
      effects.append(effect)
    case .mutation(let mutation):
      let state = state()
      defer { reading.previous = state }
      guard isShown else { break }
      if case .stream(let name) = mutation.cause { noteStream(name) }
      let changes = StateChanges.lines(from: reading.previous, to: state, change: mutation.state)
      marks.append(
        Placed(
          column: column,
          mark: .mutation(id: mutation.id, label: mutation.label, cause: mutation.cause)))
      marks.append(Placed(column: column, mark: .stateChange(changes: changes)))
    case .jump(let jump):
      let state = state()
      defer { reading.previous = state }
      guard isShown else { break }
      // Drawn as a mutation from outside the app, as a stream's is.
      let sender = "external " + (jump.external ?? "command")
      noteStream(sender)
      let changes = StateChanges.lines(
        from: reading.previous, to: state, change: jump.stateChange)
      marks.append(
        Placed(
          column: column,
          mark: .mutation(id: 0, label: "jump to event \(jump.target)", cause: .stream(sender))))
      marks.append(Placed(column: column, mark: .stateChange(changes: changes)))
    case .streamEnded(let end):
      guard isShown else { break }
      noteStream(end.stream)
      marks.append(Placed(column: column, mark: .streamEnd(stream: end.stream, error: end.error)))
    case .gap(let gap):
      guard isShown else { break }
      marks.append(Placed(column: column, mark: .gap(dropped: gap.droppedEvents)))
    case .end:
      break
    }
  }

  /// Ends the effects still open at the reactor's release, which is over for them: at
  /// `column`, the last column before the release, or, when `nil` (no column shows an event
  /// before the release), not drawn.
  ///
  /// - Parameters:
  ///   - column: The last column before the release, if any.
  ///   - reading: What earlier events left open; emptied.
  mutating func release(at column: Int?, reading: inout Reading) {
    defer { reading.open = [:] }
    guard let column else { return }
    for var effect in reading.open.values.sorted(by: { $0.id < $1.id }) {
      effect.end = column
      effect.isEndedByRelease = true
      effects.append(effect)
    }
  }

  /// Adds the effects still open at the window's (or page's) end: drawn to its right edge as
  /// still running, or as `ending` says when it knows how one ends later.
  ///
  /// - Parameters:
  ///   - reading: What the reactor's events left open.
  ///   - hasColumns: Whether the window shows any event; an effect that started before an
  ///     empty window is not drawn.
  ///   - ending: Where and how an open effect ends beyond the page, if it does: with an
  ///     outcome, or (`nil`) by its reactor's release.
  mutating func finish(
    _ reading: Reading, hasColumns: Bool,
    ending: (Effect) -> (end: Int, outcome: TraceEvent.Outcome?)?
  ) {
    for var effect in reading.open.values where effect.start != nil || hasColumns {
      if let later = ending(effect) {
        effect.end = later.end
        effect.outcome = later.outcome
        effect.isEndedByRelease = later.outcome == nil
      }
      effects.append(effect)
    }
    // Effects that started before the page have negative starts, or none: they keep their
    // order.
    effects.sort { ($0.start ?? .min, $0.id) < ($1.start ?? .min, $1.id) }
  }

  private mutating func noteStream(_ stream: String) {
    if !streams.contains(stream) { streams.append(stream) }
  }
}
