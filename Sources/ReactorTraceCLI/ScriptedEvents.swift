import ReactorTracing

/// The events a script handed to a reactor's fakes, kept in the trace header's metadata so
/// that mutate replay can hand them over again at the same times.
///
/// Stored under ``metadataKey`` as a JSON array: `[{"t": 900, "event": {...}}]`, `t` in
/// milliseconds like the script.
struct ScriptedEvents: Sendable {
  /// One event and when it was handed over.
  struct Event: Sendable {
    var time: Duration
    var value: JSONValue
  }

  /// The metadata key.
  static let metadataKey = "script.events"

  var events: [Event]

  /// The event steps of `script`.
  init(script: ActionScript) {
    events = script.steps.compactMap { step in
      guard case .event(let value) = step.input else { return nil }
      return Event(time: step.time, value: value)
    }
  }

  /// The events stored in a trace's metadata; none when the key is absent.
  init(metadata: [String: String]) throws(ReplayMetadataError) {
    guard let text = metadata[Self.metadataKey] else {
      events = []
      return
    }
    guard case .array(let items)? = try? JSONValue(parsing: text) else {
      throw ReplayMetadataError(reason: "'\(Self.metadataKey)' is not a JSON array")
    }
    events = try items.map { item throws(ReplayMetadataError) in
      guard case .object(let object) = item, let value = object["event"],
        let time = object["t"].flatMap(TraceTime.duration(milliseconds:))
      else {
        throw ReplayMetadataError(
          reason:
            "'\(Self.metadataKey)' holds \(item.serializedString), not {\"t\": ms, \"event\": …}")
      }
      return Event(time: time, value: value)
    }
  }

  /// The metadata value, or `nil` when there are no events.
  var metadataValue: String? {
    guard !events.isEmpty else { return nil }
    let items = events.map { event in
      // Exact: the milliseconds' decimal text, read back by ``TraceTime``.
      let milliseconds = TraceTime.millisecondsText(event.time).flatMap {
        try? JSONValue(parsing: $0)
      }
      return JSONValue.object(JSONObject([("t", milliseconds ?? .null), ("event", event.value)]))
    }
    return JSONValue.array(items).serializedString
  }
}

/// A trace header's metadata that a replay cannot use.
struct ReplayMetadataError: Error, Sendable {
  var reason: String
}
