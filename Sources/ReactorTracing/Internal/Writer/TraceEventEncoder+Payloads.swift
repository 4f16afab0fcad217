import ReactorCore
import ReactorJSON

// Payloads: actions' and mutations' encodings and labels.

extension TraceEventEncoder {
  mutating func actionPayload(_ action: Action) -> PayloadCache.Entry {
    if let entry = actionPayloads.entry(for: action) { return entry }
    let json = encode(action, as: encodableAction, redactor: actionRedactor)
    let isEnum = actionIsEnum ?? (Mirror(reflecting: action).displayStyle == .enum)
    actionIsEnum = isEnum
    let entry = PayloadCache.Entry(
      json: json, label: label(action, isEnum: isEnum, json: json, redactor: actionRedactor))
    actionPayloads.store(entry, for: action)
    return entry
  }

  mutating func mutationPayload(_ mutation: Mutation) -> PayloadCache.Entry {
    if let entry = mutationPayloads.entry(for: mutation) { return entry }
    let json = encode(mutation, as: encodableMutation, redactor: mutationRedactor)
    let isEnum = mutationIsEnum ?? (Mirror(reflecting: mutation).displayStyle == .enum)
    mutationIsEnum = isEnum
    let entry = PayloadCache.Entry(
      json: json, label: label(mutation, isEnum: isEnum, json: json, redactor: mutationRedactor))
    mutationPayloads.store(entry, for: mutation)
    return entry
  }

  /// Calls `body` with the members an action's line holds (``PayloadCache/Entry/members``):
  /// read in place in the cache when the action was met before.
  mutating func withActionMembers(
    _ action: Action, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    if actionPayloads.withMembers(for: action, body) { return }
    actionPayload(action).members.withUnsafeBufferPointer(body)
  }

  /// Calls `body` with the members a mutation's line holds, as ``withActionMembers(_:_:)``.
  mutating func withMutationMembers(
    _ mutation: Mutation, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    if mutationPayloads.withMembers(for: mutation, body) { return }
    mutationPayload(mutation).members.withUnsafeBufferPointer(body)
  }

  /// The value's Codable encoding after redaction, or `nil` if it is not Encodable or its
  /// encoding fails.
  func encode<Value>(
    _ value: Value, as encodable: StaticEncodable?, redactor: Redactor
  ) -> JSONValue? {
    let json: JSONValue?
    if let encodable {
      json = encode(value, as: encodable.type)
    } else if let encodable = value as? any Encodable {
      json = try? encoder.encode(encodable)
    } else {
      json = nil
    }
    return json.map { redactor.redact($0) }
  }

  /// Encodes `value`, whose type is `T`, without casting it dynamically.
  func encode<Value, T: Encodable>(_ value: Value, as type: T.Type) -> JSONValue? {
    withUnsafePointer(to: value) { pointer in
      pointer.withMemoryRebound(to: T.self, capacity: 1) { try? encoder.encode($0.pointee) }
    }
  }

  func describe<Value>(_ value: Value, redactor: Redactor) -> String {
    redactor.isActive ? TraceRedaction.marker : String(describing: value)
  }

  /// A readable label: the case name alone for a case without payload, else the value's
  /// description, or with redaction a description built from the redacted encoding.
  private func label<Value>(
    _ value: Value, isEnum: Bool, json: JSONValue?, redactor: Redactor
  ) -> String {
    if isEnum, let json, case .object(let object) = json, object.count == 1,
      case .object(let payload) = object.members[0].value
    {
      let name = object.members[0].key
      // An empty payload is a case without one, or one whose optional values are all nil.
      if payload.isEmpty && Mirror(reflecting: value).children.isEmpty { return name }
      if redactor.isActive {
        let arguments = payload.members.map { member in
          member.key.hasPrefix("_") && Int(member.key.dropFirst()) != nil
            ? Self.render(member.value) : "\(member.key): \(Self.render(member.value))"
        }
        return Self.truncated(name + "(" + arguments.joined(separator: ", ") + ")")
      }
    }
    if redactor.isActive {
      return json.map { Self.truncated(Self.render($0)) } ?? TraceRedaction.marker
    }
    let description = String(describing: value)
    if isEnum, Self.mentionsOptional(description),
      let readable = Self.caseLabel(value)
    {
      return Self.truncated(readable)
    }
    return Self.truncated(description)
  }

  /// Whether `description` holds `Optional(`: searched in its UTF-8, which a generic
  /// substring search took ten times as long to do.
  private static func mentionsOptional(_ description: String) -> Bool {
    var description = description
    return description.withUTF8 { bytes in
      let pattern: StaticString = "Optional("
      let count = pattern.utf8CodeUnitCount
      guard bytes.count >= count else { return false }
      let characters = pattern.utf8Start
      for start in 0...(bytes.count - count) where bytes[start] == characters[0] {
        var offset = 1
        while offset < count && bytes[start + offset] == characters[offset] { offset += 1 }
        if offset == count { return true }
      }
      return false
    }
  }

  /// An enum case's label with optional payload values unwrapped, as Swift would write the
  /// value in code: `setError("Wrong password")`, `setError(nil)`; `nil` when `value` is not
  /// a case with a payload.
  static func caseLabel(_ value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      let name = child.label
    else { return nil }
    let payload = Mirror(reflecting: child.value)
    let arguments: [String]
    if payload.displayStyle == .tuple {
      arguments = payload.children.map { element in
        let label = element.label.map { $0.hasPrefix(".") ? "" : "\($0): " } ?? ""
        return label + payloadText(element.value)
      }
    } else {
      arguments = [payloadText(child.value)]
    }
    return name + "(" + arguments.joined(separator: ", ") + ")"
  }

  /// A payload value as a case label shows it: an optional's value or `nil`, otherwise as
  /// `debugPrint` writes it.
  private static func payloadText(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first else { return "nil" }
      return payloadText(wrapped.value)
    }
    return String(reflecting: value)
  }

  private static func render(_ value: JSONValue) -> String {
    value.serializedString
  }

  private static func truncated(_ label: String) -> String {
    guard label.count > maximumLabelLength else { return label }
    return String(label.prefix(maximumLabelLength - 1)) + "…"
  }
}
