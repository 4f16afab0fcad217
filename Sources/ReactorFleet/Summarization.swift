public import ReactorStateMachines
public import ReactorTracing

/// A `summarize` run: traces and sessions (and, when merging, summary files) in, summary
/// lines out.
///
/// Every file is read as a session (a trace is a session of one reactor); the lanes of every
/// reactor of a type are summarized under the abstraction chosen for the type: a projection
/// onto `keys`, the whole state, or the one saved in an ``AbstractionFile`` or inferred from
/// the type's lanes in all the files (with `overrides` winning).
///
/// ```swift
/// var run = Summarization(choice: .inferred(overrides: [:]))
/// let result = try run.summarize(["a.trace.jsonl", "app.session.jsonl.gz"], merging: false)
/// ```
public struct Summarization: Sendable {
  /// How states are abstracted.
  public enum Choice: Sendable, Hashable {
    /// Every distinct whole state is its own state.
    case wholeState
    /// States projected onto these dotted key paths.
    case keys([StatePath])
    /// Inferred from each reactor type's lanes (unless the abstraction file has it), with
    /// these fields drawn as chosen (in the types that have them).
    case inferred(overrides: [String: FieldAbstraction])
  }

  /// What a run produced.
  public struct Result: Sendable {
    /// The summary lines: per file in the order given, or merged and sorted.
    public var summaries: [TransitionSummary]
    /// How many traces and sessions were read.
    public var traceCount: Int
    /// How many summary files were merged in.
    public var summaryFileCount: Int
    /// How many events the traces and sessions held.
    public var eventCount: Int
    /// The abstraction file's contents after the run: what it held plus what was inferred.
    public var abstractions: AbstractionFile
    /// Warnings about traces and sessions (torn lines, gaps), each naming its file.
    public var warnings: [String]
    /// Why each file that is neither a trace nor a session (nor, when merging, summaries)
    /// was skipped, one line each.
    public var skipped: [String]
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

  /// Summarizes the traces and sessions among `paths` and, when `merging`, merges in the
  /// summary files among them.
  ///
  /// A file is a trace or a session when its first line is a trace or session header;
  /// otherwise, when `merging`, it is read as summary lines, and else it is skipped (and
  /// named in ``Result/skipped``). When nothing is left to summarize, the first skipped
  /// file's reason is the error.
  ///
  /// - Parameters:
  ///   - paths: Files, already expanded (``FleetFiles/expand(_:extensions:)``).
  ///   - merging: Whether to merge everything into one line per key.
  /// - Returns: The lines and what was read.
  /// - Throws: ``FleetError``.
  public func summarize(_ paths: [String], merging: Bool) throws(FleetError) -> Result {
    var recordings: [String] = []
    var summaryFiles: [String] = []
    var notTraces: [TraceReadError] = []
    // The reactor of each trace of one reactor, known from its first lines.
    var traceReactors: [String: ReactorIntroduction] = [:]
    for path in paths {
      do {
        let reader = try FleetFiles.sessionReader(at: path)
        recordings.append(path)
        if reader.header.isTraceOfOneReactor,
          case .introduced(let introduction)? = try? reader.next()?.kind
        {
          traceReactors[path] = introduction
        }
      } catch .trace(.notATrace(let path, let reason)) {
        if merging {
          summaryFiles.append(path)
        } else {
          notTraces.append(.notATrace(path: path, reason: reason))
        }
      }
    }
    if recordings.isEmpty, summaryFiles.isEmpty,
      case .notATrace(let path, let reason)? =
        notTraces.first
    {
      throw .trace(.notATrace(path: path, reason: reason + "; merging summaries needs --merge"))
    }
    var abstractions = saved
    var files: [FileSummary] = []
    for path in recordings {
      // A trace whose one reactor has no abstraction yet is read once it is inferred.
      if case .inferred = choice, let reactor = traceReactors[path],
        abstractions.abstractions[reactor.type] == nil
      {
        files.append(
          FileSummary(
            lines: [], types: [reactor.type], missing: [(path, reactor.reactor, reactor.type)],
            warnings: []))
        continue
      }
      files.append(try summarize(path, under: abstractions))
    }
    // Types no abstraction was given for are inferred from the lanes of all their reactors,
    // and the files that hold them summarized again.
    let missing = files.flatMap(\.missing)
    if case .inferred(let overrides) = choice, !missing.isEmpty {
      try infer(into: &abstractions, from: missing, overrides: overrides)
      for index in files.indices where !files[index].missing.isEmpty {
        files[index] = try summarize(recordings[index], under: abstractions)
      }
    }
    var lines: [TransitionSummary] = []
    var merged = SummarySet()
    for (path, file) in zip(recordings, files) {
      if merging {
        for summary in file.lines where !merged.add(summary) {
          throw .overflow(path: path, line: 0, field: "count")
        }
      } else {
        lines += file.lines
      }
      if let chosen = file.abstraction {
        for type in file.types { abstractions.abstractions[type] = chosen }
      }
    }
    for path in summaryFiles {
      try merged.add(contentsOf: path)
    }
    return Result(
      summaries: merging ? merged.summaries : lines, traceCount: recordings.count,
      summaryFileCount: summaryFiles.count, eventCount: files.reduce(0) { $0 + $1.eventCount },
      abstractions: abstractions, warnings: files.flatMap(\.warnings),
      skipped: notTraces.map { "skipped: \($0.description)" })
  }

  /// What one trace or session gave.
  private struct FileSummary {
    var lines: [TransitionSummary]
    /// The types of its reactors, in order of their first introduction.
    var types: [String] = []
    /// The abstraction of every type, for `--whole-state` and `--key`.
    var abstraction: StateAbstraction?
    /// Its reactors of types with no abstraction yet.
    var missing: [(path: String, reactor: Int, type: String)] = []
    var eventCount = 0
    var warnings: [String]
  }

  /// Summarizes one trace or session under the abstractions chosen so far.
  private func summarize(
    _ path: String, under abstractions: AbstractionFile
  ) throws(FleetError) -> FileSummary {
    let summarizer: TraceSummarizer
    switch choice {
    case .wholeState:
      summarizer = TraceSummarizer(abstraction: .wholeState, metadataKeys: metadataKeys)
    case .keys(let keys):
      summarizer = TraceSummarizer(
        abstraction: StateAbstraction(keys: keys), metadataKeys: metadataKeys)
    case .inferred:
      summarizer = TraceSummarizer(
        abstractions: abstractions.abstractions, metadataKeys: metadataKeys)
    }
    let reader = try FleetFiles.sessionReader(at: path)
    var file = FileSummary(lines: [], abstraction: summarizer.abstraction, warnings: [])
    let lines = try summarizer.summarize(reader) { event in
      // A trace of one reactor reads with an introduction (`seq` 0) that is no line of it.
      if event.sequence > 0 { file.eventCount += 1 }
      guard case .introduced(let introduction) = event.kind else { return }
      if !file.types.contains(introduction.type) { file.types.append(introduction.type) }
      if summarizer.abstraction == nil, abstractions.abstractions[introduction.type] == nil {
        file.missing.append((path, introduction.reactor, introduction.type))
      }
    }
    file.lines = lines
    file.warnings = reader.warnings.map { "\(path): \($0)" }
    return file
  }

  /// Infers the abstraction of every reactor type of the files that `abstractions` lacks,
  /// from the lanes of all its reactors.
  ///
  /// An override applies to the types that have its field; one that no type has is refused.
  private func infer(
    into abstractions: inout AbstractionFile,
    from missing: [(path: String, reactor: Int, type: String)],
    overrides: [String: FieldAbstraction]
  ) throws(FleetError) {
    var types: [String] = []
    var lanes: [String: [(path: String, reactor: Int)]] = [:]
    for lane in missing {
      if lanes[lane.type] == nil { types.append(lane.type) }
      lanes[lane.type, default: []].append((lane.path, lane.reactor))
    }
    let sessions = LaneSource()
    var unused = Set(overrides.keys)
    var known: Set<String> = []
    for type in types {
      let openers = lanes[type, default: []].map { lane in
        { () throws -> TraceReader in try sessions.lane(of: lane.reactor, in: lane.path) }
      }
      var chosen = overrides
      do throws(TransitionGraphError) {
        while true {
          do throws(TransitionGraphError) {
            abstractions.abstractions[type] = try StateAbstraction.inferred(
              fromTraces: openers, overrides: chosen)
            break
          } catch .unknownField(_, let fields) where types.count > 1 {
            known.formUnion(fields)
            chosen = chosen.filter { fields.contains($0.key) }
          }
        }
      } catch {
        // A trace first read here fails as its summary would have.
        if case .unreadableTrace(let error) = error { throw .trace(error) }
        throw .abstraction(error)
      }
      unused.subtract(chosen.keys)
    }
    if types.count > 1, let name = unused.sorted().first {
      throw .abstraction(.unknownField(name, known: known.sorted()))
    }
  }
}

/// The lanes of traces and sessions, for inference (``FleetFiles/lanes(at:)``): a trace's one
/// lane is streamed from disk; the file last opened is kept, since the lanes of a file come
/// one after another.
private final class LaneSource {
  private var path: String?
  private var lanes: [Int: ReactorLanes.Lane] = [:]

  /// The lane of `reactor` in the file at `path`, as a reader verifying states.
  func lane(of reactor: Int, in path: String) throws(TraceReadError) -> TraceReader {
    if self.path != path {
      self.path = nil
      lanes = [:]
      do throws(FleetError) {
        for lane in try FleetFiles.lanes(at: path).lanes { lanes[lane.reactor.reactor] = lane }
      } catch {
        guard case .trace(let error) = error else {
          throw .readFailed(path: path, reason: error.description)
        }
        throw error
      }
      self.path = path
    }
    guard let lane = lanes[reactor] else {
      throw .readFailed(path: path, reason: "it has no reactor \(reactor)")
    }
    return try lane.open()
  }
}
