import ReactorCore
import ReactorJSON

/// Encodes a state that is not `Encodable`, such as one that holds reactors (cell reactors in
/// its rows, a child reactor in a field), as JSON with each reactor as a reference to its
/// lane, `{"reactor": 3}`: how a session records such a state without the user writing
/// ``ReactorCore/ReactorReference`` by hand.
///
/// It walks the state with `Mirror` on the main actor, where a session lane encodes: a
/// reactor becomes a ``ReactorCore/ReactorReference`` (which introduces it, while the session
/// records every reactor), never its state; an `Encodable` part encodes as it says; structs,
/// classes and tuples become objects of their stored properties, collections and sets arrays,
/// dictionaries objects keyed by their keys' descriptions, optionals their value or `null`,
/// enum cases their name or `{name: payload}`, anything else its description. Every state of
/// such a type is reflected, whether it holds a reactor at the moment or not, so that its
/// lane stores JSON throughout (diffs, and paths the views and `--key` can use), where a trace
/// of one reactor stores its description.
enum ReactorStateReflection {
  /// How deep the walk goes before it describes what is left: classes may form cycles.
  static let maximumDepth = 32

  /// The JSON of `state` with its reactors as references.
  ///
  /// Call it on the main actor only.
  /// - Parameter state: The state.
  /// - Returns: Its JSON.
  static func json(of state: any Sendable) -> JSONValue {
    MainActor.assumeIsolated { Walk().reflect(state, depth: 0) }
  }

  @MainActor
  private struct Walk {
    let encoder = JSONValueEncoder()

    func reflect(_ value: Any, depth: Int) -> JSONValue {
      if let reactor = value as? any Reactor { return reference(to: reactor) }
      if let encodable = value as? any Encodable, let json = try? encoder.encode(encodable) {
        return json
      }
      guard depth < ReactorStateReflection.maximumDepth else {
        return .string(String(describing: value))
      }
      let mirror = Mirror(reflecting: value)
      switch mirror.displayStyle {
      case .optional:
        guard let wrapped = mirror.children.first else { return .null }
        return reflect(wrapped.value, depth: depth + 1)
      case .collection, .set:
        var elements: [JSONValue] = []
        for child in mirror.children { elements.append(reflect(child.value, depth: depth + 1)) }
        return .array(elements)
      case .dictionary:
        var members: [(String, JSONValue)] = []
        for child in mirror.children {
          let pair = Array(Mirror(reflecting: child.value).children)
          guard pair.count == 2 else { continue }
          members.append(
            (String(describing: pair[0].value), reflect(pair[1].value, depth: depth + 1)))
        }
        return .object(JSONObject(members))
      case .enum:
        guard let payload = mirror.children.first, let name = payload.label else {
          return .string(String(describing: value))
        }
        return .object(JSONObject([(name, reflect(payload.value, depth: depth + 1))]))
      case .struct, .class, .tuple:
        var members: [(String, JSONValue)] = []
        for (index, child) in mirror.children.enumerated() {
          members.append((child.label ?? "_\(index)", reflect(child.value, depth: depth + 1)))
        }
        return .object(JSONObject(members))
      default:
        return .string(String(describing: value))
      }
    }

    private func reference(to reactor: some Reactor) -> JSONValue {
      let id = ReactorReference(reactor).reactor
      return .object(JSONObject([("reactor", id.map { .int(Int64($0)) } ?? .null)]))
    }
  }
}
