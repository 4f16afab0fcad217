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
  /// The UTF-8 lengths of ``names`` as bits (bit 63 for 63 bytes and longer): a key of
  /// another length is no name, found without hashing it (the index asks of every key).
  private let nameLengths: UInt64
  private let action: Redactor?
  private let mutation: Redactor?
  private let state: Redactor?

  private init() {
    rules = []
    names = []
    nameLengths = 0
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
    nameLengths = names?.reduce(0) { $0 | Self.lengthBit($1) } ?? 0
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

  /// An action's or a mutation's label whose payload a rule changes: the case name stays, its
  /// payload reads `<redacted>`.
  func hidden(_ label: String) -> String {
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
      if case .key(let key) = $0 { isName(key) } else { false }
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

  /// Whether text (a file's bytes) holds a name some rule names (always, when a rule names
  /// no key): a file that cannot be redacted value by value is taken to hide something then.
  func mayName(in bytes: [UInt8]) -> Bool {
    guard let names else { return true }
    for name in names where !name.isEmpty {
      let needle = Array(name.utf8)
      if bytes.count >= needle.count,
        (0...(bytes.count - needle.count)).contains(where: { start in
          bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle)
        })
      {
        return true
      }
    }
    return false
  }

  /// Whether a value has a key some rule names, at any depth (always, when a rule names no
  /// key): only then can a rule change it.
  private func mayName(_ value: JSONValue) -> Bool {
    guard let names else { return true }
    guard !names.isEmpty else { return false }
    switch value {
    case .object(let object):
      return object.members.contains { isName($0.key) || mayName($0.value) }
    case .array(let elements):
      return elements.contains { mayName($0) }
    default:
      return false
    }
  }

  /// Whether a rule names `key` (any key, when a rule names none).
  @inline(__always)
  private func isName(_ key: String) -> Bool {
    guard let names else { return true }
    return nameLengths & Self.lengthBit(key) != 0 && names.contains(key)
  }

  @inline(__always)
  private static func lengthBit(_ key: String) -> UInt64 {
    1 << UInt64(min(key.utf8.count, 63))
  }
}
