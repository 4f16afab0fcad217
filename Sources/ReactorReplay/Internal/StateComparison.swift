import CustomDump
import ReactorTracing

/// Compares recorded and replayed JSON, ignoring redacted values, and describes differences.
enum StateComparison {
  /// `replayed` with every value whose recorded counterpart is the redaction marker replaced
  /// by the marker, so redacted paths compare equal.
  static func masking(_ replayed: JSONValue, like recorded: JSONValue) -> JSONValue {
    if recorded == .string(TraceRedaction.marker) { return recorded }
    switch (recorded, replayed) {
    case (.object(let old), .object(let new)):
      var members: [(String, JSONValue)] = []
      for (key, value) in new.members {
        members.append((key, old[key].map { masking(value, like: $0) } ?? value))
      }
      return .object(JSONObject(members))
    case (.array(let old), .array(let new)):
      return .array(
        new.indices.map { index in
          index < old.count ? masking(new[index], like: old[index]) : new[index]
        })
    default:
      return replayed
    }
  }

  /// The value at `path`, or `nil` where there is none.
  static func value(at path: [JSONPathComponent], in root: JSONValue) -> JSONValue? {
    var current = root
    for component in path {
      switch (component, current) {
      case (.key(let key), .object(let object)):
        guard let next = object[key] else { return nil }
        current = next
      case (.index(let index), .array(let elements)):
        guard elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// One line per changed path: `value: 1 → 2`, with `(none)` where a value is missing.
  static func pathDiff(from old: JSONValue, to new: JSONValue) -> String {
    changes(from: old, to: new).map { change in
      "  \(change.path.dottedDescription): \(text(change.before)) → \(text(change.after))"
    }.joined(separator: "\n")
  }

  /// The paths that differ between two values, with the value at each path on both sides.
  static func changes(
    from old: JSONValue, to new: JSONValue
  ) -> [(path: [JSONPathComponent], before: JSONValue?, after: JSONValue?)] {
    old.diff(to: new).map { operation in
      (
        operation.path, value(at: operation.path, in: old),
        value(at: operation.path, in: new)
      )
    }
  }

  /// A readable diff of recorded and replayed states: CustomDump's diff of the decoded values
  /// when both decode, otherwise a path-by-path diff of their JSON.
  static func stateDiff<State>(
    recorded: JSONValue, replayed: State, replayedJSON: JSONValue, as type: State.Type
  ) -> String {
    if let decoded = CodableValues.decode(type, from: recorded),
      let diff = CustomDump.diff(
        decoded, replayed, format: DiffFormat(first: "-", second: "+", both: " "))
    {
      return "the replayed state differs from the recorded one (- recorded, + replayed):\n"
        + diff
    }
    return "the replayed state differs from the recorded one (recorded → replayed):\n"
      + pathDiff(from: recorded, to: replayedJSON)
  }

  /// A value for a one-line report.
  static func text(_ value: JSONValue?) -> String {
    value?.serializedString ?? "(none)"
  }
}
