public import ReactorTracing

/// What the server hides from the agent: ``TraceRedaction`` rules applied to every state,
/// payload and label an answer holds, as a recorder applies them to what it writes.
///
/// By default the server redacts the values of members that usually hold secrets
/// (``defaultRules``); `--redact PATTERN` adds rules, `--no-redact` lifts them all
/// (``none``).
public struct AnswerRedaction: Sendable {
  /// Members that usually hold secrets or personal data, anywhere in an action, a mutation or
  /// a state.
  public static let defaultRules: [TraceRedaction] = [
    "*.**.password", "*.**.token", "*.**.secret", "*.**.apiKey", "*.**.authorization",
    "*.**.email",
  ]

  /// No redaction: `--no-redact`.
  public static let none = AnswerRedaction()

  /// The rules, as given.
  public let rules: [TraceRedaction]
  /// The keys the rules name: a value with none of them among its keys, nor a path among its
  /// components, is left alone by every rule (`nil` when a rule names no key, such as
  /// `state.*`: then every value is checked).
  private let names: Set<String>?
  private let action: Redactor?
  private let mutation: Redactor?
  private let state: Redactor?

  private init() {
    rules = []
    names = []
    action = nil
    mutation = nil
    state = nil
  }

  /// Redaction by `rules`.
  /// - Parameter rules: Patterns as ``TraceRedaction`` reads them.
  /// - Throws: ``QueryError/invalidArgument(name:reason:)`` naming a malformed pattern.
  public init(rules: [TraceRedaction]) throws(QueryError) {
    self.rules = rules
    var names: Set<String>? = []
    for rule in rules {
      let literal = rule.pattern.split(separator: ".").dropFirst().filter {
        $0 != "*" && $0 != "**"
      }
      if literal.isEmpty { names = nil }
      names?.formUnion(literal.map(String.init))
    }
    self.names = names
    do throws(TraceRecordingError) {
      action = try Redactor(rules: rules, kind: .action)
      mutation = try Redactor(rules: rules, kind: .mutation)
      state = try Redactor(rules: rules, kind: .state)
    } catch {
      throw .invalidArgument(name: "--redact", reason: "\(error)")
    }
  }

  /// Whether any rule applies.
  public var isActive: Bool { !rules.isEmpty }

  /// A state's JSON with every matching value replaced by `"<redacted>"`.
  public func state(_ value: JSONValue) -> JSONValue {
    guard let state, mayName(value) else { return value }
    return state.redact(value)
  }

  /// A state with its JSON redacted; a state known only by its description is hidden whole
  /// when any state rule applies.
  func state(_ value: TraceHeader.State) -> TraceHeader.State {
    switch value {
    case .json(let json): .json(state(json))
    case .description: state?.isActive == true ? .description(TraceRedaction.marker) : value
    }
  }

  /// An action's or a mutation's label, hidden when a rule changes its payload: the case name
  /// stays, its payload reads `<redacted>`.
  func label(_ label: String, value: JSONValue?, isAction: Bool) -> String {
    guard let redactor = isAction ? action : mutation, redactor.isActive else { return label }
    guard let value, mayName(value), redactor.redact(value) != value else { return label }
    let name = label.prefix { $0 != "(" }
    return name.count < label.count ? name + "(\(TraceRedaction.marker))" : TraceRedaction.marker
  }

  /// Whether a rule changes a payload or a state value written at `path` by a diff.
  func touches(payload value: JSONValue?, isAction: Bool) -> Bool {
    guard let value, let redactor = isAction ? action : mutation, redactor.isActive,
      mayName(value)
    else {
      return false
    }
    return redactor.redact(value) != value
  }

  /// Whether a rule hides something a state diff operation writes.
  func touches(_ operation: TraceDiffOperation) -> Bool {
    guard let state, state.isActive else { return false }
    let written: JSONValue =
      switch operation {
      case .set(_, let value): value
      case .append(_, let values): .array(values)
      case .remove, .truncate: .null
      }
    let pathNamesKey = operation.path.contains {
      if case .key(let key) = $0 { names?.contains(key) ?? true } else { false }
    }
    if names != nil, !pathNamesKey, !mayName(written) { return false }
    // The value nested under its path, so that the rules see the path as the state has it.
    var nested = written
    for component in operation.path.reversed() {
      let key =
        switch component {
        case .key(let key): key
        case .index(let index): String(index)
        }
      nested = .object(JSONObject(sortedUniqueMembers: [(key, nested)]))
    }
    return state.redact(nested) != nested
  }

  /// Whether a rule hides something in a state.
  func touches(_ value: TraceHeader.State) -> Bool {
    guard let state, state.isActive else { return false }
    if case .json(let json) = value { return mayName(json) && state.redact(json) != json }
    return true
  }

  /// Whether a value has a key some rule names, at any depth (always, when a rule names no
  /// key): only then can a rule change it.
  private func mayName(_ value: JSONValue) -> Bool {
    guard let names else { return true }
    guard !names.isEmpty else { return false }
    switch value {
    case .object(let object):
      return object.members.contains { names.contains($0.key) || mayName($0.value) }
    case .array(let elements):
      return elements.contains { mayName($0) }
    default:
      return false
    }
  }
}
