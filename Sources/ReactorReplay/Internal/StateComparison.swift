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

  /// `recorded` with the members only `current` has added, at every depth of nested objects:
  /// a recorded state completed with today's initial values of fields added since.
  static func overlaying(_ recorded: JSONValue, on current: JSONValue) -> JSONValue {
    guard case .object(let old) = recorded, case .object(let new) = current else {
      return recorded
    }
    var result = old
    for (key, value) in new.members {
      if let kept = old[key] {
        result[key] = overlaying(kept, on: value)
      } else {
        result[key] = value
      }
    }
    return .object(result)
  }

  /// `json` without the members its recorded schema does not know: a replayed state as the
  /// trace would have recorded it, to compare on the fields the trace knows.
  static func projecting(_ json: JSONValue, onto schema: TypeSchema) -> JSONValue {
    switch (schema, json) {
    case (.structure(_, let fields, let isPartial), .object(let object)):
      let known = Dictionary(fields.map { ($0.name, $0.schema) }, uniquingKeysWith: { a, _ in a })
      var members: [(String, JSONValue)] = []
      for (key, value) in object.members {
        if let field = known[key] {
          members.append((key, projecting(value, onto: field)))
        } else if isPartial {
          members.append((key, value))
        }
      }
      return .object(JSONObject(members))
    case (.optional(let wrapped), _):
      return json == .null ? json : projecting(json, onto: wrapped)
    case (.array(let element), .array(let elements)), (.set(let element), .array(let elements)):
      return .array(elements.map { projecting($0, onto: element) })
    case (.dictionary(_, let value), .object(let object)):
      return .object(
        JSONObject(object.members.map { ($0.key, projecting($0.value, onto: value)) }))
    case (.wrapper(_, let value), _):
      return projecting(json, onto: value)
    case (.tuple(let elements), .array(let values)) where elements.count == values.count:
      return .array(zip(values, elements).map { projecting($0, onto: $1) })
    case (.enumeration(_, nil, let cases, _), .object(let object)) where object.count == 1:
      guard let (name, payload) = object.members.first,
        let found = cases.first(where: { $0.name == name })
      else { return json }
      return .object(
        JSONObject([
          (
            name,
            projecting(payload, onto: .structure(name: "", fields: found.fields, isPartial: false))
          )
        ]))
    default:
      return json
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
