public import ReactorScript
import ReactorTracing

/// A script of timed actions found by an exploration, in the format `reactor-trace record
/// --actions` reads.
///
/// ```
/// {"reactor":"ReactorExamples.CounterReactor","meta":{"limit":"2"}}
/// {"t":0,"action":"increase"}
/// {"t":500,"action":"increase"}
/// ```
public struct ExplorationScript: Sendable, Hashable {
  /// An action and when to send it.
  public struct Step: Sendable, Hashable {
    /// The virtual time from the start at which to send the action.
    public var time: Duration
    /// The action.
    public var action: Exploration.Action
  }

  /// The steps, in order.
  public var steps: [Step]

  /// The actions' labels, comma separated: `increase, increase, decrease`.
  public var summary: String {
    steps.map(\.action.label).joined(separator: ", ")
  }

  /// The script as `record --actions` reads it, naming the reactor and its metadata.
  /// - Parameters:
  ///   - reactor: The reactor's type name.
  ///   - metadata: The metadata the reactor was built with.
  /// - Returns: A script named `explored script`, a step per action.
  public func script(reactor: String, metadata: [String: String]) -> ReactorScript {
    ReactorScript(
      name: "explored script", reactor: reactor, metadata: metadata,
      steps: steps.enumerated().map { index, step in
        ReactorScript.Step(time: step.time, input: .action(step.action.value), line: index + 2)
      })
  }

  /// The script's lines: a header naming the reactor and its metadata, then a step per line.
  /// - Parameters:
  ///   - reactor: The reactor's type name.
  ///   - metadata: The metadata the reactor was built with.
  /// - Returns: JSON Lines, without newlines.
  public func lines(reactor: String, metadata: [String: String]) -> [String] {
    script(reactor: reactor, metadata: metadata).lines
  }
}
