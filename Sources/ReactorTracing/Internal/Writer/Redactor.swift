import ReactorJSON

/// Applies the redaction rules for one payload kind to encoded values.
///
/// `package`: the MCP server's answers (ReactorQuery) redact with the recorder's own rules.
package struct Redactor: Sendable {
  /// The paths that apply to this kind; empty when nothing is redacted.
  let paths: [[TraceRedaction.Component]]

  /// Whether any rule applies to this kind.
  package var isActive: Bool { !paths.isEmpty }

  package init(
    rules: [TraceRedaction], kind: TraceRedaction.PayloadKind
  ) throws(TraceRecordingError) {
    var paths: [[TraceRedaction.Component]] = []
    for rule in rules {
      let (kinds, path) = try rule.components().get()
      if kinds.contains(kind) { paths.append(path) }
    }
    self.paths = paths
  }

  /// The value with every matching path replaced by the redaction marker.
  package func redact(_ value: JSONValue) -> JSONValue {
    guard isActive else { return value }
    return Self.redact(value, states: paths.map { $0[...] })
  }

  private static func redact(
    _ value: JSONValue, states: [ArraySlice<TraceRedaction.Component>]
  ) -> JSONValue {
    // A pattern that is used up here, or that ends in `**`, matches this value.
    if states.contains(where: { $0.allSatisfy { $0 == .anyDepth } }) {
      return .string(TraceRedaction.marker)
    }
    switch value {
    case .object(let object):
      var members = object.members
      for index in members.indices {
        let next = advance(states, over: members[index].key)
        if !next.isEmpty { members[index].value = redact(members[index].value, states: next) }
      }
      return .object(JSONObject(sortedUniqueMembers: members))
    case .array(var elements):
      for index in elements.indices {
        let next = advance(states, over: String(index))
        if !next.isEmpty { elements[index] = redact(elements[index], states: next) }
      }
      return .array(elements)
    default:
      return value
    }
  }

  /// The pattern remainders after matching one more component named `name`.
  private static func advance(
    _ states: [ArraySlice<TraceRedaction.Component>], over name: String
  ) -> [ArraySlice<TraceRedaction.Component>] {
    var next: [ArraySlice<TraceRedaction.Component>] = []
    for state in states {
      guard let first = state.first else { continue }
      switch first {
      case .name(let expected) where expected == name: next.append(state.dropFirst())
      case .name: break
      case .any: next.append(state.dropFirst())
      case .anyDepth:
        next.append(state)  // `**` consumes this component and may consume more.
        // `**` matching nothing: the rest must match this component.
        let rest = state.dropFirst()
        if let following = rest.first {
          switch following {
          case .name(let expected) where expected == name: next.append(rest.dropFirst())
          case .any: next.append(rest.dropFirst())
          case .anyDepth: next.append(rest)
          case .name: break
          }
        }
      }
    }
    return next
  }
}
