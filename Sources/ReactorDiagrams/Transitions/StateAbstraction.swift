public import ReactorTracing

/// How states become nodes of a ``TransitionGraph``: the whole state, or the values of a few
/// fields.
///
/// Projecting onto a few fields merges every state that agrees on them, which keeps graphs
/// of large states small enough to read and to lay out.
///
/// ```swift
/// let whole = StateAbstraction.wholeState
/// let loading = StateAbstraction(keys: ["isLoading", "user.name"])
/// ```
public struct StateAbstraction: Sendable, Hashable {
  /// The fields to keep, each a path of object keys from the state's root; empty for the
  /// whole state.
  public var keyPaths: [[String]]

  /// Every state is its own node.
  public static let wholeState = StateAbstraction(keyPaths: [])

  /// Creates an abstraction that keeps the fields at `keyPaths`.
  ///
  /// - Parameter keyPaths: Paths of object keys, such as `[["user", "name"]]`; empty for
  ///   the whole state.
  public init(keyPaths: [[String]]) {
    self.keyPaths = keyPaths
  }

  /// Creates an abstraction from dotted key paths such as `isLoading` or `user.name`.
  ///
  /// - Parameter keys: Dotted paths; empty for the whole state.
  public init(keys: [String]) {
    self.init(keyPaths: keys.map { $0.split(separator: ".").map(String.init) })
  }

  /// Whether every state is kept whole.
  public var isWholeState: Bool { keyPaths.isEmpty }

  /// The fields a state shows under this abstraction, as names and canonical JSON values.
  ///
  /// The whole state shows its leaf members with dotted paths (`alertMessage.value`), or
  /// itself when it is not an object; a
  /// projection shows each key path, with `∅` for a field the state lacks. A state that is
  /// only described shows its description.
  ///
  /// - Parameter state: A state rebuilt by ``TraceReader``.
  /// - Returns: The fields, in a stable order.
  public func fields(of state: TraceHeader.State) -> [StateField] {
    guard case .json(let json) = state else {
      if case .description(let description) = state {
        return [StateField(name: nil, value: description)]
      }
      return []
    }
    guard !isWholeState else {
      if case .object(let object) = json, !object.isEmpty {
        var fields: [StateField] = []
        Self.flatten(object, prefix: "", into: &fields)
        return fields
      }
      return [StateField(name: nil, value: json.serializedString)]
    }
    return zip(keyPaths, projectedValues(of: json)).map { path, value in
      StateField(name: path.joined(separator: "."), value: value?.serializedString ?? "∅")
    }
  }

  /// The values at the key paths, `nil` where the state has none.
  func projectedValues(of json: JSONValue) -> [JSONValue?] {
    keyPaths.map { path in
      var value: JSONValue? = json
      for key in path { value = value?[key] }
      return value
    }
  }
}

extension StateAbstraction {
  /// Whether a mutation whose new state is stored as `change` certainly leaves the fields
  /// this abstraction shows as they were.
  ///
  /// True for a diff none of whose operations touches a kept field (for the whole state, an
  /// empty diff); false for snapshots and descriptions, which are compared in full.
  func keepsFields(through change: TraceEvent.StateChange) -> Bool {
    guard case .diff(let operations) = change else { return false }
    guard !isWholeState else { return operations.isEmpty }
    return !operations.contains { operation in
      keyPaths.contains { Self.overlaps(operation.path, $0) }
    }
  }

  /// Whether an operation at `path` can change the value at `keyPath`: when one is a prefix
  /// of the other.
  ///
  /// An operation inside an array (an index where the key path has a key) cannot: the value
  /// there is an array before and after it, and a key path through an array finds nothing.
  private static func overlaps(_ path: [JSONPathComponent], _ keyPath: [String]) -> Bool {
    for (component, key) in zip(path, keyPath) {
      guard case .key(let name) = component, name == key else { return false }
    }
    return true
  }

  private static func flatten(_ object: JSONObject, prefix: String, into fields: inout [StateField])
  {
    for (key, value) in object.members {
      if case .object(let nested) = value, !nested.isEmpty {
        flatten(nested, prefix: prefix + key + ".", into: &fields)
      } else {
        fields.append(StateField(name: prefix + key, value: value.serializedString))
      }
    }
  }
}

/// One line of a state's summary: a field's name (when it has one) and its value.
public struct StateField: Sendable, Hashable {
  /// The field's dotted path, or `nil` for a value shown on its own.
  public var name: String?

  /// The value as canonical JSON, or a description.
  public var value: String

  /// Creates a field.
  ///
  /// - Parameters:
  ///   - name: The dotted path, or `nil`.
  ///   - value: The value's text.
  public init(name: String?, value: String) {
    self.name = name
    self.value = value
  }

  /// `name=value`, or the value alone.
  public var text: String {
    name.map { $0 + "=" + value } ?? value
  }
}
