public import ReactorStateMachines
import ReactorTracing

/// The state machine production runs make, drawn from merged transition summaries: edge
/// width by how often a transition happens, rare transitions in a colour of their own so they
/// stay visible.
///
/// Lines of one reactor and one abstraction are added up over app versions, metadata and
/// time; ``Selection`` narrows them first.
///
/// ```swift
/// var set = SummarySet()
/// try set.add(contentsOf: "merged.jsonl")
/// let production = try ProductionGraph(summaries: set.summaries, selection: .init())
/// let dot = try production.graph.frequencyDotGraph(title: production.title)
/// ```
public struct ProductionGraph: Sendable {
  /// Which lines to draw.
  public struct Selection: Sendable, Hashable {
    /// The reactor type, module-qualified or not; needed when the lines hold several.
    public var reactor: String?
    /// Only lines of this app version, when given.
    public var appVersion: String?

    /// Creates a selection.
    public init(reactor: String? = nil, appVersion: String? = nil) {
      self.reactor = reactor
      self.appVersion = appVersion
    }
  }

  /// The graph: states and transitions with production counts.
  public private(set) var graph: TransitionGraph
  /// The reactor drawn.
  public let reactor: String
  /// The abstraction the summaries used.
  public let abstraction: StateAbstraction
  /// How many traces the lines came from (the most any one line counts: a lower bound).
  public let traceCount: Int
  /// The app versions the lines came from, sorted.
  public let appVersions: [String]

  /// Adds up the selected lines into one graph.
  ///
  /// - Parameters:
  ///   - summaries: Transition summary lines, merged or not.
  ///   - selection: Which lines to draw.
  /// - Throws: ``FleetError/mixedSummaries(_:)`` when the lines hold several reactors and
  ///   none is selected, several abstractions of it, or none at all;
  ///   ``FleetError/abstraction(_:)`` when the graph is too large to collect.
  public init(summaries: [TransitionSummary], selection: Selection) throws(FleetError) {
    var lines = summaries
    if let appVersion = selection.appVersion {
      lines = lines.filter { $0.key.appVersion == appVersion }
    }
    let reactors = Set(lines.map(\.key.reactor)).sorted()
    let reactor: String
    if let given = selection.reactor {
      // A type may be named without its module, as sessions' views name it.
      let wanted =
        reactors.contains(given)
        ? given : reactors.first { ReactorIntroduction.shortTypeName($0) == given } ?? given
      guard reactors.contains(wanted) else {
        throw .mixedSummaries(
          "no summary line of \(wanted)"
            + (selection.appVersion.map { " at app version \($0)" } ?? "")
            + "; the lines hold: "
            + (reactors.isEmpty ? "nothing" : reactors.joined(separator: ", ")))
      }
      reactor = wanted
    } else {
      guard reactors.count == 1 else {
        throw .mixedSummaries(
          reactors.isEmpty
            ? "no summary line to draw"
            : "the summaries hold \(reactors.count) reactors; choose one with --reactor: "
              + reactors.joined(separator: ", "))
      }
      reactor = reactors[0]
    }
    lines = lines.filter { $0.key.reactor == reactor }
    let abstractions = Set(lines.map(\.key.abstraction)).sorted()
    guard abstractions.count == 1 else {
      throw .mixedSummaries(
        "the summaries of \(reactor) use \(abstractions.count) abstractions, which do not "
          + "group: " + abstractions.joined(separator: " | ")
          + "; summarize them again with one --abstraction file")
    }
    abstraction = try StateAbstraction(summaryText: abstractions[0])
    self.reactor = reactor
    appVersions = Set(lines.map(\.key.appVersion)).sorted()
    traceCount = lines.map(\.traces).max() ?? 0
    // The same transition of several versions, platforms or time bases is one edge.
    var graph = TransitionGraph(abstraction: abstraction)
    graph.setReactor(reactor)
    do throws(TransitionGraphError) {
      for line in lines.sorted(by: { $0.first < $1.first }) {
        let source = try graph.addState(fields: Self.fields(of: line.key.from))
        let target = try graph.addState(fields: Self.fields(of: line.key.to))
        try graph.addTransition(
          from: source, to: target, mutation: line.key.mutation, action: line.key.action,
          count: line.count)
      }
    } catch {
      throw .abstraction(error)
    }
    self.graph = graph
  }

  /// The fields of a summary's state text: one `name=value` per line.
  public static func fields(of text: String) -> [StateField] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard let equals = line.firstIndex(of: "=") else {
        return StateField(name: nil, value: String(line), shown: Self.short(line))
      }
      let value = line[line.index(after: equals)...]
      return StateField(
        name: String(line[..<equals]), value: String(value), shown: Self.short(value))
    }
  }

  private static func short(_ text: Substring) -> String {
    text.count <= 40 ? String(text) : text.prefix(39) + "…"
  }

  /// Keeps only the transitions `filter` keeps (``TransitionGraph/filtered(by:)``).
  public mutating func filter(by filter: TransitionFilter) throws(FleetError) {
    do {
      graph = try graph.filtered(by: filter)
    } catch {
      throw .abstraction(error)
    }
  }

  /// What the graph shows, for its diagram's title: the reactor, how many transitions and
  /// states production made and reached, and the app versions (`(none)` for lines without
  /// one; a count beyond four).
  public var title: String {
    let all = graph.transitions.reduce(0) { $0 &+ $1.count }
    let versions =
      appVersions.count <= 4
      ? appVersions.map { $0.isEmpty ? "(none)" : $0 }.joined(separator: ", ")
      : "\(appVersions.count) versions"
    return "\(reactor) in production\n\(max(1, all)) transitions, \(graph.states.count) states, "
      + "app \(versions)"
  }
}
