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

  /// The script's lines: a header naming the reactor and its metadata, then a step per line.
  /// - Parameters:
  ///   - reactor: The reactor's type name.
  ///   - metadata: The metadata the reactor was built with.
  /// - Returns: JSON Lines, without newlines.
  public func lines(reactor: String, metadata: [String: String]) -> [String] {
    var header: [(String, JSONValue)] = [("reactor", .string(reactor))]
    if !metadata.isEmpty {
      header.append(
        ("meta", .object(JSONObject(metadata.map { ($0.key, JSONValue.string($0.value)) }))))
    }
    var lines = [JSONValue.object(JSONObject(header)).serializedString]
    for step in steps {
      let nanoseconds = step.time / .nanoseconds(1)
      let time: JSONValue =
        nanoseconds.truncatingRemainder(dividingBy: 1_000_000) == 0
        ? .int(Int64(nanoseconds / 1_000_000)) : .double(nanoseconds / 1_000_000)
      lines.append(
        JSONValue.object(JSONObject([("t", time), ("action", Self.compact(step.action.value))]))
          .serializedString)
    }
    return lines
  }

  /// `{"increase": {}}` as `"increase"`, which scripts also accept.
  private static func compact(_ value: JSONValue) -> JSONValue {
    if case .object(let object) = value, object.count == 1,
      case .object(let payload) = object.members[0].value, payload.isEmpty
    {
      return .string(object.members[0].key)
    }
    return value
  }
}
