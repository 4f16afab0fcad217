import ReactorStateMachines
import ReactorTracing

/// What a mutation changed, as lines a person reads: `isLoading: false → true`,
/// `tasks[2].isDone: false → true`, `repos: +3 items`.
///
/// Built from the mutation's diff when the trace stored one (so the cost follows the change,
/// not the state), otherwise by comparing the two states. A pulse's update count is left
/// out: its value says what was sent.
enum StateChanges {
  /// The most lines kept for one mutation.
  static let limit = 8

  static func lines(
    from old: TraceHeader.State, to new: TraceHeader.State, change: TraceEvent.StateChange
  ) -> [String] {
    var lines: [String] = []
    switch (old, new, change) {
    case (.json(let before), .json, .diff(let operations)):
      for operation in operations where lines.count < limit {
        let path = operation.path
        if case .key(StatePulse.countKey)? = path.last { continue }
        let name = path.isEmpty ? "" : path.dottedDescription
        let previous = Self.value(at: path, in: before)
        switch operation {
        case .set(_, let value): compare(previous, value, name, into: &lines)
        case .remove:
          if case .index? = path.last {
            lines.append(name + " removed")
          } else {
            compare(previous, nil, name, into: &lines)
          }
        case .append(_, let values):
          lines.append(name + ": +" + ValueText.items(values.count))
        case .truncate(_, let count):
          let removed = (previous?.arrayValue?.count ?? count) - count
          lines.append(name + ": −" + ValueText.items(removed))
        }
      }
    case (.json(let before), .json(let after), _):
      compare(before, after, "", into: &lines)
    default:
      if old != new {
        if case .description(let text) = new {
          lines.append(text)
        } else {
          lines.append("state replaced")
        }
      }
    }
    return lines
  }

  /// Appends the differences between two values at `name`, leaf by leaf.
  private static func compare(
    _ old: JSONValue?, _ new: JSONValue?, _ name: String, into lines: inout [String]
  ) {
    guard lines.count < limit, old != new else { return }
    switch (old, new) {
    case (.object(let before)?, .object(let after)?):
      var keys = before.members.map(\.key)
      for (key, _) in after.members where before[key] == nil { keys.append(key) }
      for key in keys where key != StatePulse.countKey {
        compare(before[key], after[key], name.isEmpty ? key : name + "." + key, into: &lines)
      }
    case (.array(let before)?, .array(let after)?):
      if before.count == after.count {
        for index in before.indices {
          compare(before[index], after[index], name + "[\(index)]", into: &lines)
        }
      } else if after.count > before.count {
        lines.append(name + ": +" + ValueText.items(after.count - before.count))
      } else {
        lines.append(name + ": −" + ValueText.items(before.count - after.count))
      }
    default:
      let budget = 22
      lines.append(
        (name.isEmpty ? "state" : name) + ": " + ValueText.short(old, budget: budget) + " → "
          + ValueText.short(new, budget: budget))
    }
  }

  private static func value(at path: [JSONPathComponent], in json: JSONValue) -> JSONValue? {
    var value: JSONValue? = json
    for component in path {
      switch component {
      case .key(let key): value = value?[key]
      case .index(let index):
        guard let array = value?.arrayValue, array.indices.contains(index) else { return nil }
        value = array[index]
      }
    }
    return value
  }
}
