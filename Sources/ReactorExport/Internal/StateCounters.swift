import ReactorTracing

/// The numeric and Boolean fields of states, followed from mutation to mutation so that each
/// change becomes a point on a counter track.
///
/// Fields are found through objects only (not arrays), named by their dotted paths; Booleans
/// count as 0 and 1. At most ``limit`` fields get a track, the first ones seen.
struct StateCounters {
  /// The most counter tracks: a state with many numbers would bury the other tracks.
  static let limit = 32

  private var values: [String: Double] = [:]
  /// The fields followed, in the order first seen.
  private var names: [String] = []

  /// Every field followed and its last value, in the order first seen: what one point of the
  /// counter holds.
  ///
  /// A point names every field, not only those that changed: the Chrome trace viewer takes a
  /// counter's fields from its first point and reads a field a later point leaves out as 0.
  var current: [(name: String, value: Double)] {
    names.compactMap { name in values[name].map { (name, $0) } }
  }

  /// The fields of `state` whose value differs from the last one reported, in path order.
  ///
  /// - Parameters:
  ///   - state: The state after a mutation (or the initial state).
  ///   - change: How the mutation stored it; `nil` to look at the whole state. A diff limits
  ///     the search to the paths it set.
  /// - Returns: Each changed field's dotted path and new value.
  mutating func changes(
    in state: TraceHeader.State, through change: TraceEvent.StateChange?
  ) -> [(name: String, value: Double)] {
    guard case .json(let json) = state else { return [] }
    var found: [(name: String, value: Double)] = []
    switch change {
    case .diff(let operations)?:
      for operation in operations {
        guard case .set = operation else { continue }
        var names: [String] = []
        var value: JSONValue? = json
        for component in operation.path {
          guard case .key(let key) = component else {
            value = nil
            break
          }
          names.append(key)
          value = value?[key]
        }
        if let value { Self.collect(value, name: names.joined(separator: "."), into: &found) }
      }
    case .snapshot?, nil:
      Self.collect(json, name: "", into: &found)
    case .description?:
      return []
    }
    var changed: [(name: String, value: Double)] = []
    for (name, value) in found where values[name] != value {
      guard values[name] != nil || values.count < Self.limit else { continue }
      if values[name] == nil { names.append(name) }
      values[name] = value
      changed.append((name, value))
    }
    return changed
  }

  private static func collect(
    _ value: JSONValue, name: String, into found: inout [(name: String, value: Double)]
  ) {
    switch value {
    case .int(let int): found.append((name, Double(int)))
    case .uint(let uint): found.append((name, Double(uint)))
    case .double(let double): found.append((name, double))
    case .bool(let bool): found.append((name, bool ? 1 : 0))
    case .object(let object):
      for (key, member) in object.members {
        collect(member, name: name.isEmpty ? key : name + "." + key, into: &found)
      }
    case .null, .string, .array: break
    }
  }
}
