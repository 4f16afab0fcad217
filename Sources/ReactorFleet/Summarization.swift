public import ReactorStateMachines
public import ReactorTracing

/// A `summarize` run: traces (and, when merging, summary files) in, summary lines out.
///
/// Traces are grouped by reactor; each reactor's states are abstracted by the abstraction
/// chosen for it: a projection onto `keys`, the whole state, or the one saved in an
/// ``AbstractionFile`` or inferred from the reactor's traces (with `overrides` winning).
///
/// ```swift
/// var run = Summarization(choice: .inferred(overrides: [:]))
/// let result = try run.summarize(["a.trace.jsonl", "b.trace.jsonl.gz"], merging: false)
/// ```
public struct Summarization: Sendable {
  /// How states are abstracted.
  public enum Choice: Sendable, Hashable {
    /// Every distinct whole state is its own state.
    case wholeState
    /// States projected onto these dotted key paths.
    case keys([StatePath])
    /// Inferred from each reactor's traces (unless the abstraction file has it), with these
    /// fields drawn as chosen.
    case inferred(overrides: [String: FieldAbstraction])
  }

  /// What a run produced.
  public struct Result: Sendable {
    /// The summary lines: per trace in the order given, or merged and sorted.
    public var summaries: [TransitionSummary]
    /// How many traces were read.
    public var traceCount: Int
    /// How many summary files were merged in.
    public var summaryFileCount: Int
    /// How many events the traces held.
    public var eventCount: Int
    /// The abstraction file's contents after the run: what it held plus what was inferred.
    public var abstractions: AbstractionFile
    /// Warnings about traces (torn lines, gaps), each naming its file.
    public var warnings: [String]
  }

  /// How states are abstracted.
  public var choice: Choice
  /// Abstractions saved by an earlier run; they win over inference.
  public var saved: AbstractionFile
  /// The metadata keys kept besides `appVersion`.
  public var metadataKeys: Set<String>

  /// Creates a run.
  ///
  /// - Parameters:
  ///   - choice: How states are abstracted.
  ///   - saved: Abstractions saved by an earlier run.
  ///   - metadataKeys: The metadata keys kept besides `appVersion`.
  public init(
    choice: Choice, saved: AbstractionFile = AbstractionFile(), metadataKeys: Set<String> = []
  ) {
    self.choice = choice
    self.saved = saved
    self.metadataKeys = metadataKeys
  }

  /// Summarizes the traces among `paths` and, when `merging`, merges in the summary files
  /// among them.
  ///
  /// A file is a trace when its first line is a trace header; otherwise, when `merging`, it
  /// is read as summary lines.
  ///
  /// - Parameters:
  ///   - paths: Files, already expanded (``FleetFiles/expand(_:extensions:)``).
  ///   - merging: Whether to merge everything into one line per key.
  /// - Returns: The lines and what was read.
  /// - Throws: ``FleetError``.
  public func summarize(_ paths: [String], merging: Bool) throws(FleetError) -> Result {
    var traces: [(path: String, reactor: String)] = []
    var summaryFiles: [String] = []
    for path in paths {
      do {
        let reader = try FleetFiles.traceReader(at: path)
        traces.append((path, reader.header.reactor))
      } catch .trace(.notATrace(let path, let reason)) where merging {
        _ = reason
        summaryFiles.append(path)
      } catch .trace(.notATrace(let path, let reason)) {
        throw .trace(.notATrace(path: path, reason: reason + "; merging summaries needs --merge"))
      }
    }
    var abstractions = saved
    var reactors: [String] = []
    for trace in traces where !reactors.contains(trace.reactor) { reactors.append(trace.reactor) }
    for reactor in reactors {
      switch choice {
      case .wholeState:
        abstractions.abstractions[reactor] = .wholeState
      case .keys(let keys):
        abstractions.abstractions[reactor] = StateAbstraction(keys: keys)
      case .inferred(let overrides):
        guard abstractions.abstractions[reactor] == nil else { continue }
        let openers = traces.filter { $0.reactor == reactor }.map { trace in
          { () throws -> TraceReader in
            do throws(FleetError) {
              return try FleetFiles.traceReader(at: trace.path)
            } catch {
              guard case .trace(let error) = error else {
                throw TraceReadError.readFailed(path: trace.path, reason: error.description)
              }
              throw error
            }
          }
        }
        do throws(TransitionGraphError) {
          abstractions.abstractions[reactor] = try StateAbstraction.inferred(
            fromTraces: openers, overrides: overrides)
        } catch {
          throw .abstraction(error)
        }
      }
    }
    var lines: [TransitionSummary] = []
    var merged = SummarySet()
    var eventCount = 0
    var warnings: [String] = []
    for trace in traces {
      let reader = try FleetFiles.traceReader(at: trace.path)
      let summarizer = TraceSummarizer(
        abstraction: abstractions.abstractions[trace.reactor]!, metadataKeys: metadataKeys)
      let summaries = try summarizer.summarize(reader)
      eventCount += reader.eventCount
      warnings += reader.warnings.map { "\(trace.path): \($0)" }
      if merging {
        for summary in summaries where !merged.add(summary) {
          throw .overflow(path: trace.path, line: 0, field: "count")
        }
      } else {
        lines += summaries
      }
    }
    for path in summaryFiles {
      try merged.add(contentsOf: path)
    }
    return Result(
      summaries: merging ? merged.summaries : lines, traceCount: traces.count,
      summaryFileCount: summaryFiles.count, eventCount: eventCount, abstractions: abstractions,
      warnings: warnings)
  }
}
