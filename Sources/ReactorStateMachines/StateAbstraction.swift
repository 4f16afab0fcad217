public import ReactorTracing

/// How states become nodes of a ``TransitionGraph``: the whole state, the values of a few
/// fields, or each top-level field drawn by a ``FieldRule``.
///
/// Projecting onto a few fields merges every state that agrees on them, which keeps graphs
/// of large states small enough to read and to lay out. Rules go further: a field can show
/// as `nil` / `non-nil`, `empty` / `non-empty` or an item count instead of its value, so that
/// nodes are control states rather than data; ``inferred(fromTracesAt:overrides:distinctValueLimit:)``
/// picks the rules from what the traces hold.
///
/// ```swift
/// let whole = StateAbstraction.wholeState
/// let loading = StateAbstraction(keys: ["isLoading", "user.name", "tasks.0.title"])
/// let machine = try StateAbstraction.inferred(fromTracesAt: ["search.trace.jsonl"])
/// ```
public struct StateAbstraction: Sendable, Hashable {
  /// The fields to keep, each a path from the state's root; empty for the whole state.
  public var keyPaths: [StatePath]

  /// How each top-level field is drawn; empty unless made by ``init(rules:)``.
  public private(set) var rules: [FieldRule] = []

  /// Every state is its own node.
  public static let wholeState = StateAbstraction(keyPaths: [])

  /// Creates an abstraction that keeps the fields at `keyPaths`.
  ///
  /// - Parameter keyPaths: Paths such as `user.name` or `tasks.0.title`; empty for the
  ///   whole state.
  public init(keyPaths: [StatePath]) {
    self.keyPaths = keyPaths
  }

  /// Creates an abstraction that keeps the fields at `keys`, such as `isLoading` or
  /// `tasks.0.title`.
  ///
  /// - Parameter keys: The paths; empty for the whole state.
  public init(keys: [StatePath]) {
    self.init(keyPaths: keys)
  }

  /// Creates an abstraction that draws each top-level field by its rule.
  ///
  /// Fields without a rule are left out; ``FieldAbstraction/event`` fields are left out of
  /// nodes and drawn on the transitions that change them.
  ///
  /// - Parameter rules: One rule per field, in the order the fields show.
  public init(rules: [FieldRule]) {
    self.keyPaths = rules.filter(\.abstraction.isShownInNodes).map {
      StatePath(components: [$0.name])
    }
    self.rules = rules
  }

  /// Whether every state is kept whole.
  public var isWholeState: Bool { keyPaths.isEmpty && rules.isEmpty }

  /// The fields drawn as events: pulses.
  public var eventFields: [String] {
    rules.filter { $0.abstraction == .event }.map(\.name)
  }

  /// The fields a state shows under this abstraction, as names and canonical JSON values.
  ///
  /// The whole state shows its leaf members with dotted paths (`alertMessage.value`), or
  /// itself when it is not an object; a projection shows each key path, with `∅` for a field
  /// the state lacks (shown as `nil`, like `null`); rules show each field as their
  /// abstraction writes it. A state that is only described shows its description.
  ///
  /// - Parameter state: A state rebuilt by ``TraceReader``.
  /// - Returns: The fields, in a stable order.
  public func fields(of state: TraceHeader.State) -> [StateField] {
    guard case .json(let json) = state else {
      if case .description(let description) = state {
        return [
          StateField(name: nil, value: description, shown: description.singleLine.truncated(to: 60))
        ]
      }
      return []
    }
    guard !isWholeState else {
      if case .object(let object) = json, !object.isEmpty {
        var fields: [StateField] = []
        Self.flatten(object, prefix: "", into: &fields)
        return fields
      }
      return [StateField(name: nil, value: json.serializedString, shown: ValueText.short(json))]
    }
    guard rules.isEmpty else {
      let shown = rules.filter(\.abstraction.isShownInNodes)
      return zip(shown, projectedValues(of: json)).map { rule, value in
        let text = rule.abstraction.text(of: value)
        return StateField(name: rule.name, value: text, shown: text)
      }
    }
    return zip(keyPaths, projectedValues(of: json)).map { path, value in
      StateField(
        name: path.description, value: value?.serializedString ?? "∅",
        shown: ValueText.short(value))
    }
  }

  /// The values at the key paths, `nil` where the state has none.
  func projectedValues(of json: JSONValue) -> [JSONValue?] {
    keyPaths.map { $0.value(in: json) }
  }
}

extension StateAbstraction {
  /// Whether a mutation whose new state is stored as `change` certainly leaves the fields
  /// this abstraction shows as they were.
  ///
  /// True for a diff none of whose operations touches a kept field (for the whole state, an
  /// empty diff); false for snapshots and descriptions, which are compared in full.
  ///
  /// - Parameter change: How the trace stored the mutation's new state.
  /// - Returns: Whether ``fields(of:)`` certainly gives the same fields after the mutation.
  public func keepsFields(through change: TraceEvent.StateChange) -> Bool {
    guard case .diff(let operations) = change else { return false }
    guard !isWholeState else { return operations.isEmpty }
    return !operations.contains { operation in
      keyPaths.contains { $0.overlaps(operation.path) }
    }
  }

  private static func flatten(_ object: JSONObject, prefix: String, into fields: inout [StateField])
  {
    for (key, value) in object.members {
      if case .object(let nested) = value, !nested.isEmpty {
        flatten(nested, prefix: prefix + key + ".", into: &fields)
      } else {
        fields.append(
          StateField(
            name: prefix + key, value: value.serializedString, shown: ValueText.short(value)))
      }
    }
  }
}

/// One line of a state's summary: a field's name (when it has one) and its value.
public struct StateField: Sendable, Hashable {
  /// The field's dotted path, or `nil` for a value shown on its own.
  public var name: String?

  /// The value as canonical JSON, a description, or the text of its abstraction; what
  /// tells states apart.
  public var value: String

  /// The value as a person reads it: cut by meaning (`["octo/swift-1", … 2 more]`), with
  /// `nil` for a missing or null value.
  public var shown: String

  /// Creates a field.
  ///
  /// - Parameters:
  ///   - name: The dotted path, or `nil`.
  ///   - value: The value's text.
  ///   - shown: The value as drawn; `value` when `nil`.
  public init(name: String?, value: String, shown: String? = nil) {
    self.name = name
    self.value = value
    self.shown = shown ?? value
  }

  /// `name=value`, or the value alone.
  public var text: String {
    name.map { $0 + "=" + value } ?? value
  }

  /// `name: shown`, or the shown value alone: a line of a node.
  public var line: String {
    name.map { $0 + ": " + shown } ?? shown
  }
}
