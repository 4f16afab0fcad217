public import ReactorStateMachines
public import ReactorTracing

/// Turns one trace or session into its transition summary: one ``TransitionSummary`` per
/// reactor type and distinct transition, counted.
///
/// A transition is the state before a mutation and the state after it under the reactor
/// type's ``StateAbstraction``, with the mutation's case and the case of the action behind
/// it. Every reactor of a type (every lane of a session) adds to the same lines; a trace of
/// one reactor is a session of one lane. The abstraction must be the same for every file
/// whose summaries are to be merged: give it (`--key`, `--field`) or infer it once and save
/// its ``StateAbstraction/summaryText``. Memory grows with the number of distinct
/// transitions, of actions and of live reactors, not with the file.
///
/// ```swift
/// let summarizer = TraceSummarizer(abstraction: StateAbstraction(keys: ["isLoading"]))
/// let lines = try summarizer.summarize(SessionReader(path: "counter.trace.jsonl"))
/// ```
public struct TraceSummarizer: Sendable {
  /// The metadata key whose value is a summary's ``TransitionSummary/Key/appVersion``.
  public static let appVersionKey = "appVersion"

  /// How the states of each reactor type (module-qualified) are abstracted; reactors of
  /// other types are not summarized.
  public var abstractions: [String: StateAbstraction]

  /// How the states of types missing from ``abstractions`` are abstracted, or `nil` to leave
  /// those reactors out.
  public var abstraction: StateAbstraction?

  /// The metadata keys (besides ``appVersionKey``) that summaries keep and group by.
  public var metadataKeys: Set<String>

  /// Creates a summarizer that abstracts the states of every reactor the same way.
  ///
  /// - Parameters:
  ///   - abstraction: How states are abstracted; the same for every file to be merged.
  ///   - metadataKeys: Metadata to keep, such as `os`; device ids would stop lines grouping.
  public init(abstraction: StateAbstraction, metadataKeys: Set<String> = []) {
    self.abstractions = [:]
    self.abstraction = abstraction
    self.metadataKeys = metadataKeys
  }

  /// Creates a summarizer with an abstraction per reactor type; reactors of other types are
  /// left out.
  ///
  /// - Parameters:
  ///   - abstractions: Each type's abstraction, by module-qualified type.
  ///   - metadataKeys: Metadata to keep, such as `os`; device ids would stop lines grouping.
  public init(abstractions: [String: StateAbstraction], metadataKeys: Set<String> = []) {
    self.abstractions = abstractions
    self.abstraction = nil
    self.metadataKeys = metadataKeys
  }

  /// What the summarizer keeps of one live reactor.
  private struct Lane {
    var abstraction: StateAbstraction
    var base: TransitionSummary.Key
    var current: String
    var isAfterGap = false
  }

  /// A reactor's action or effect, as a key.
  private struct EventKey: Hashable {
    var reactor: Int
    var id: Int
  }

  /// Reads the rest of a session (or trace) and returns its summary, sorted by key.
  ///
  /// A mutation right after a gap starts from an unknown state and is not counted.
  ///
  /// - Parameters:
  ///   - reader: A reader that verifies states and has read no event yet.
  ///   - observe: Called with every event read, before it is summarized.
  /// - Returns: One line per reactor type and distinct transition, each with `traces` 1.
  /// - Throws: ``FleetError/trace(_:)`` when the file cannot be read.
  public func summarize(
    _ reader: SessionReader, observing observe: (SessionEvent) -> Void = { _ in }
  ) throws(FleetError) -> [TransitionSummary] {
    let origin = reader.header.clock.origin.flatMap(TraceTime.unixNanoseconds(iso8601:))
    var lanes: [Int: Lane] = [:]
    var lines: [TransitionSummary] = []
    var index: [TransitionSummary.Key: Int] = [:]
    // The lines each running effect's mutations went to, and how many, until it ends.
    var pending: [EventKey: [Int: Int]] = [:]
    var actionCases: [EventKey: String] = [:]
    do {
      while let event = try reader.next() {
        observe(event)
        switch event.kind {
        case .introduced(let introduction):
          guard let abstraction = abstractions[introduction.type] ?? abstraction else {
            continue
          }
          let header = introduction.traceHeader(in: reader.header)
          let base = TransitionSummary.Key(
            reactor: header.reactor,
            schema: [header.schema.action, header.schema.mutation, header.schema.state]
              .map(\.digest.description).joined(separator: "-"),
            appVersion: header.metadata[Self.appVersionKey] ?? "",
            metadata: header.metadata.filter { metadataKeys.contains($0.key) },
            abstraction: abstraction.summaryText, timeBase: origin == nil ? "trace" : "unix",
            from: "", action: "", mutation: "", to: "")
          lanes[introduction.reactor] = Lane(
            abstraction: abstraction, base: base,
            current: Self.text(of: introduction.initialState, under: abstraction))
        case .released(let reactor):
          lanes[reactor] = nil
        case .gap:
          for reactor in lanes.keys { lanes[reactor]!.isAfterGap = true }
        case .reactor(let reactor, let kind):
          switch kind {
          case .action(let action):
            guard lanes[reactor] != nil else { continue }
            actionCases[EventKey(reactor: reactor, id: action.id)] = StateTransition.caseName(
              of: action.label)
          case .effectEnded(let end):
            guard
              let counts = pending.removeValue(
                forKey: EventKey(reactor: reactor, id: end.effect))
            else { continue }
            for (line, count) in counts {
              switch end.outcome {
              case .finished: lines[line].outcomes.finished += count
              case .cancelled: lines[line].outcomes.cancelled += count
              case .failed: lines[line].outcomes.failed += count
              }
            }
          case .mutation(let mutation):
            guard var lane = lanes[reactor] else { continue }
            let target =
              lane.abstraction.keepsFields(through: mutation.state)
              ? lane.current
              : reader.currentState(of: reactor).map { Self.text(of: $0, under: lane.abstraction) }
                ?? lane.current
            defer {
              lane.current = target
              lanes[reactor] = lane
            }
            if lane.isAfterGap {
              lane.isAfterGap = false
              continue
            }
            var key = lane.base
            key.from = lane.current
            key.to = target
            key.mutation = StateTransition.caseName(of: mutation.label)
            let cause = mutation.attributedCause(reactor: reactor)
            switch cause {
            case .stream(let name): key.action = "stream " + name
            case .action(let id), .effect(_, let id):
              key.action = actionCases[EventKey(reactor: reactor, id: id)] ?? "action #\(id)"
            }
            var time = event.time.traceNanoseconds
            if let origin {
              let (sum, overflow) = origin.addingReportingOverflow(time)
              time = overflow ? Int64.max : sum
            }
            let line: Int
            if let found = index[key] {
              line = found
              lines[line].count += 1
              lines[line].last = max(lines[line].last, time)
            } else {
              line = lines.count
              index[key] = line
              lines.append(
                TransitionSummary(
                  key: key, count: 1, traces: 1, first: time, last: time,
                  outcomes: TransitionSummary.Outcomes()))
            }
            if case .effect(let effect, _) = cause {
              pending[EventKey(reactor: reactor, id: effect), default: [:]][line, default: 0] +=
                1
            } else {
              lines[line].outcomes.sync += 1
            }
          case .jump(let jump):
            // Set from outside the app: the lane goes on from there, with no transition.
            guard var lane = lanes[reactor] else { continue }
            lane.current = Self.text(of: jump.state, under: lane.abstraction)
            lanes[reactor] = lane
          case .effectStarted, .streamEnded, .gap, .end:
            break
          }
        case .end:
          break
        }
      }
    } catch {
      throw .trace(error)
    }
    for counts in pending.values {
      for (line, count) in counts { lines[line].outcomes.running += count }
    }
    return lines.sorted { $0.key < $1.key }
  }

  /// The state's fields under an abstraction, one `name=value` per line.
  public static func text(of state: TraceHeader.State, under abstraction: StateAbstraction)
    -> String
  {
    abstraction.fields(of: state).map(\.text).joined(separator: "\n")
  }
}
