public import ReactorTracing

/// The events a script handed to a reactor's fakes, kept in the trace header's metadata so
/// that mutate replay, `rerecord` and generated tests can hand them over again at the same
/// times.
///
/// Stored under ``metadataKey`` as a JSON array, `t` in milliseconds like the script:
/// `[{"event":{"create":{"title":"Reply"}},"t":900}]`.
public struct ScriptedEvents: Sendable, Hashable {
  /// One event and when it was handed over.
  public struct Event: Sendable, Hashable {
    /// When, from the start of the run.
    public var time: Duration
    /// The event, as the script wrote it.
    public var value: JSONValue

    /// An event at `time`.
    public init(time: Duration, value: JSONValue) {
      self.time = time
      self.value = value
    }
  }

  /// The metadata key: `script.events`.
  public static let metadataKey = "script.events"

  /// The events, in script order.
  public var events: [Event]

  /// These events.
  public init(events: [Event]) {
    self.events = events
  }

  /// The event steps of `script`.
  public init(script: ReactorScript) {
    events = script.steps.compactMap { step in
      guard case .event(let value) = step.input else { return nil }
      return Event(time: step.time, value: value)
    }
  }

  /// The events stored in a trace's metadata; none when the key is absent.
  /// - Throws: ``ScriptError/unusableEvents(reason:)`` when the value is not a list of
  ///   `{"t": ms, "event": …}` with times in range.
  public init(metadata: [String: String]) throws(ScriptError) {
    guard let text = metadata[Self.metadataKey] else {
      events = []
      return
    }
    guard case .array(let items)? = try? JSONValue(parsing: text) else {
      throw .unusableEvents(reason: "'\(Self.metadataKey)' is not a JSON array")
    }
    events = try items.map { item throws(ScriptError) in
      guard case .object(let object) = item, let value = object["event"],
        let time = object["t"].flatMap(TraceTime.duration(milliseconds:))
      else {
        throw .unusableEvents(
          reason:
            "'\(Self.metadataKey)' holds \(item.serializedString), not {\"t\": ms, \"event\": …}")
      }
      return Event(time: time, value: value)
    }
  }

  /// The metadata value, or `nil` when there are no events.
  public var metadataValue: String? {
    guard !events.isEmpty else { return nil }
    let items = events.map { event in
      JSONValue.object(
        JSONObject([("t", ScriptTime.milliseconds(event.time)), ("event", event.value)]))
    }
    return JSONValue.array(items).serializedString
  }

  /// `metadata` with these events stored under ``metadataKey`` (or the key removed when
  /// there are none).
  public func stored(in metadata: [String: String]) -> [String: String] {
    var metadata = metadata
    metadata[Self.metadataKey] = metadataValue
    return metadata
  }
}
