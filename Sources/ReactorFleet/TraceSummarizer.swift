public import ReactorStateMachines
public import ReactorTracing

/// Turns one trace into its transition summary: one ``TransitionSummary`` per distinct
/// transition, counted.
///
/// A transition is the state before a mutation and the state after it under a fixed
/// ``StateAbstraction``, with the mutation's case and the case of the action behind it. The
/// abstraction must be the same for every trace whose summaries are to be merged: give it
/// (`--key`, `--field`) or infer it once and save its ``StateAbstraction/summaryText``.
/// Memory grows with the number of distinct transitions and of actions, not with the trace.
///
/// ```swift
/// let summarizer = TraceSummarizer(abstraction: StateAbstraction(keys: ["isLoading"]))
/// let lines = try summarizer.summarize(TraceReader(path: "counter.trace.jsonl"))
/// ```
public struct TraceSummarizer: Sendable {
  /// The metadata key whose value is a summary's ``TransitionSummary/Key/appVersion``.
  public static let appVersionKey = "appVersion"

  /// How states are abstracted.
  public var abstraction: StateAbstraction

  /// The metadata keys (besides ``appVersionKey``) that summaries keep and group by.
  public var metadataKeys: Set<String>

  /// Creates a summarizer.
  ///
  /// - Parameters:
  ///   - abstraction: How states are abstracted; the same for every trace to be merged.
  ///   - metadataKeys: Metadata to keep, such as `os`; device ids would stop lines grouping.
  public init(abstraction: StateAbstraction, metadataKeys: Set<String> = []) {
    self.abstraction = abstraction
    self.metadataKeys = metadataKeys
  }

  /// Reads the rest of a trace and returns its summary, sorted by key.
  ///
  /// A mutation right after a gap starts from an unknown state and is not counted.
  ///
  /// - Parameter reader: A reader that verifies states and has read no event yet.
  /// - Returns: One line per distinct transition.
  /// - Throws: ``FleetError/trace(_:)`` when the trace cannot be read.
  public func summarize(_ reader: TraceReader) throws(FleetError) -> [TransitionSummary] {
    let header = reader.header
    let origin = header.clock.origin.flatMap(TraceTime.unixNanoseconds(iso8601:))
    let base = TransitionSummary.Key(
      reactor: header.reactor,
      schema: [header.schema.action, header.schema.mutation, header.schema.state]
        .map(\.digest.description).joined(separator: "-"),
      appVersion: header.metadata[Self.appVersionKey] ?? "",
      metadata: header.metadata.filter { metadataKeys.contains($0.key) },
      abstraction: abstraction.summaryText, timeBase: origin == nil ? "trace" : "unix",
      from: "", action: "", mutation: "", to: "")
    var lines: [TransitionSummary] = []
    var index: [TransitionSummary.Key: Int] = [:]
    var actionCases: [Int: String] = [:]
    // The lines each running effect's mutations went to, and how many, until it ends.
    var pending: [Int: [Int: Int]] = [:]
    var current = text(of: header.initialState)
    var isAfterGap = false
    do {
      while let event = try reader.next() {
        switch event.kind {
        case .action(let action):
          actionCases[action.id] = StateTransition.caseName(of: action.label)
        case .gap:
          isAfterGap = true
        case .effectEnded(let end):
          guard let counts = pending.removeValue(forKey: end.effect) else { continue }
          for (line, count) in counts {
            switch end.outcome {
            case .finished: lines[line].outcomes.finished += count
            case .cancelled: lines[line].outcomes.cancelled += count
            case .failed: lines[line].outcomes.failed += count
            }
          }
        case .mutation(let mutation):
          let target =
            abstraction.keepsFields(through: mutation.state)
            ? current : text(of: reader.currentState)
          defer { current = target }
          if isAfterGap {
            isAfterGap = false
            continue
          }
          var key = base
          key.from = current
          key.to = target
          key.mutation = StateTransition.caseName(of: mutation.label)
          let cause = mutation.attributedCause()
          switch cause {
          case .stream(let name): key.action = "stream " + name
          case .action(let id), .effect(_, let id):
            key.action = actionCases[id] ?? "action #\(id)"
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
            pending[effect, default: [:]][line, default: 0] += 1
          } else {
            lines[line].outcomes.sync += 1
          }
        case .effectStarted, .streamEnded, .end:
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

  /// The state's fields under the abstraction, one `name=value` per line.
  public func text(of state: TraceHeader.State) -> String {
    abstraction.fields(of: state).map(\.text).joined(separator: "\n")
  }
}
