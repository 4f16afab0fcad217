import ReactorTracing

/// A trace read for a mutate replay with effects played back: its events up to the first gap,
/// the sent actions, and what each effect did.
struct RecordedTimeline {
  /// An event and its line in the file.
  struct Line {
    var event: TraceEvent
    var line: Int
  }

  /// A sent action, by its position among the sent actions.
  struct SentAction {
    var id: Int
    var index: Int
    var label: String
    var value: JSONValue
    var line: Int
    var sequence: Int
    var time: Duration
  }

  /// What one effect of the trace did.
  struct Effect {
    var id: Int
    var name: String?
    /// The recorded id of the action that started it.
    var action: Int
    /// The index of its `effectStart` line; `nil` for an effect already running when the
    /// trace starts.
    var startIndex: Int?
    /// The indexes of the mutations it sent before its first suspension (right after its
    /// start, at the same time, before anything else happened), sent again as it starts.
    var prefix: [Int] = []
    /// Whether it ended before its first suspension, right after its prefix.
    var endsInPrefix = false
    /// The index of its `effectEnd` line and how it ended.
    var end: (index: Int, outcome: TraceEvent.Outcome)?
    /// For an effect an action cancelled: the sent actions (positions) that may have, the
    /// last action before its end or another at the same time after the effect's own.
    var cancellers: [Int] = []
    /// The last of ``cancellers``, the action the cancellation is reported at.
    var canceller: Int?
    /// The description of the `id` it was started with, in a trace that records effect ids.
    var cancelID: String?
    /// Whether it was started with `cancelInFlight`, in a trace that records effect ids.
    var cancelsInFlight = false

    var isCarriedOver: Bool { startIndex == nil }
  }

  var lines: [Line] = []
  var actions: [SentAction] = []
  /// Sent action positions by recorded action id.
  var positions: [Int: Int] = [:]
  var effects: [Int: Effect] = [:]
  /// Effect ids in the order the trace starts them, carried-over ones first.
  var effectOrder: [Int] = []
  /// The effects each recorded action started, in order.
  var effectsOfAction: [Int: [Int]] = [:]
  var endTime = Duration.zero
  var lastSequence = 0
  var hasEndLine = false
  var dropped = 0
  /// Whether the trace records each effect's `id` and `cancelInFlight` (format 1.3 and
  /// later 1.x), so that their absence means the effect had none.
  var recordsEffectIDs = false
  /// The first jump whose state is not the one recorded after its target: its index among
  /// ``lines`` and the problem.
  var wrongJump: (index: Int, problem: String)?

  /// Reads every event of `reader`, up to its first gap.
  init(_ reader: TraceReader) throws(ReplayError) {
    var lastAction: (index: Int, sent: Int?, time: Duration)?
    var actionIndexes: [Int: Int] = [:]
    let version = reader.header.version
    recordsEffectIDs = version.major == 1 && version.minor >= 3
    while let event = try ReplayChecks.next(reader) {
      if case .gap(let gap) = event.kind { dropped += gap.droppedEvents }
      if dropped > 0 { continue }
      endTime = max(endTime, event.time)
      lastSequence = event.sequence
      let index = lines.count
      lines.append(Line(event: event, line: reader.lineNumber))
      switch event.kind {
      case .action(let action):
        actionIndexes[action.id] = index
        var sent: Int?
        if action.source == .sent {
          guard let value = action.value else {
            throw .missingValue(line: reader.lineNumber, what: "action")
          }
          sent = actions.count
          positions[action.id] = actions.count
          actions.append(
            SentAction(
              id: action.id, index: index, label: action.label, value: value,
              line: reader.lineNumber, sequence: event.sequence, time: event.time))
        }
        lastAction = (index, sent, event.time)
      case .effectStarted(let start):
        effects[start.effect] = Effect(
          id: start.effect, name: start.name, action: start.action, startIndex: index,
          cancelID: start.cancelID, cancelsInFlight: start.cancelsInFlight)
        effectOrder.append(start.effect)
        effectsOfAction[start.action, default: []].append(start.effect)
      case .mutation(let mutation):
        if case .effect(let effect, let action) = mutation.cause {
          try carryOver(effect, action, in: reader, what: "a mutation from")
        }
      case .effectEnded(let end):
        try carryOver(end.effect, nil, in: reader, what: "the end of")
        effects[end.effect]?.end = (index, end.outcome)
        if end.outcome == .cancelled, let start = effects[end.effect]?.startIndex,
          let lastAction, let sent = lastAction.sent
        {
          let first = actionIndexes[effects[end.effect]?.action ?? 0] ?? start
          effects[end.effect]?.canceller = sent
          effects[end.effect]?.cancellers = actions.indices.filter { position in
            actions[position].index >= first && actions[position].index <= lastAction.index
              && actions[position].time == lastAction.time
          }
        }
      case .end:
        hasEndLine = true
      default:
        break
      }
    }
    findPrefixes()
    wrongJump = RecordedStateHashes.firstWrongJump(
      in: lines.lazy.map(\.event), header: reader.header)
  }

  /// `result`, or, when a jump's state is not the one recorded after its target and nothing
  /// differed before it, that jump as the divergence: the replay performs the jump as the
  /// trace records it, so the run cannot show it.
  func reportingWrongJump(_ result: ReplayResult) -> ReplayResult {
    guard let (index, problem) = wrongJump else { return result }
    let jump = lines[index]
    if let divergence = result.divergence, divergence.sequence <= jump.event.sequence {
      return result
    }
    var result = result
    result.divergence = ReplayDivergence(
      sequence: jump.event.sequence, line: jump.line, mutation: nil, action: nil,
      reason: problem, diff: nil)
    result.stepsChecked = lines[..<index].count {
      if case .mutation = $0.event.kind { true } else { false }
    }
    return result
  }

  /// Records an effect the trace does not start: one already running when a window starts.
  /// - Throws: ``ReplayError/trace(_:)`` when the trace is not a window: then its start is
  ///   missing.
  private mutating func carryOver(
    _ effect: Int, _ action: Int?, in reader: TraceReader, what: String
  ) throws(ReplayError) {
    guard effects[effect] == nil else { return }
    guard reader.header.window != nil else {
      throw .trace(
        .malformedLine(
          path: reader.path, line: reader.lineNumber,
          reason: "\(what) effect \(effect), which did not start before it (only a "
            + "flight-recorder window starts with effects running)"))
    }
    effects[effect] = Effect(id: effect, name: nil, action: action ?? 0, startIndex: nil)
    effectOrder.insert(
      effect,
      at: effectOrder.firstIndex { effects[$0]?.isCarriedOver == false }
        ?? effectOrder.endIndex)
  }

  /// Finds what each effect sent and how it ended before its first suspension.
  private mutating func findPrefixes() {
    for id in effectOrder {
      guard let start = effects[id]?.startIndex else { continue }
      var index = start + 1
      while index < lines.count, lines[index].event.time == lines[start].event.time {
        let kind = lines[index].event.kind
        if case .mutation(let mutation) = kind, case .effect(id, _) = mutation.cause {
          effects[id]?.prefix.append(index)
        } else if case .effectEnded(let end) = kind, end.effect == id {
          effects[id]?.endsInPrefix = true
          break
        } else {
          break
        }
        index += 1
      }
    }
  }

  /// The name of effect `id` for reports: `effect 3 (search)`.
  func describe(effect id: Int) -> String {
    guard let name = effects[id]?.name else { return "effect \(id)" }
    return "effect \(id) (\(name))"
  }
}
