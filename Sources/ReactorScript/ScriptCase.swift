public import ReactorTracing

/// How scripts spell an enum case without payload.
///
/// `"increase"` stands for `{"increase": {}}`, the form `Codable` writes. Every reader and
/// writer of scripts agrees through here.
public enum ScriptCase {
  /// `{"increase": {}}` as `"increase"`; any other value as it is.
  public static func compact(_ value: JSONValue) -> JSONValue {
    if case .object(let object) = value, object.count == 1,
      case .object(let payload) = object.members[0].value, payload.isEmpty
    {
      return .string(object.members[0].key)
    }
    return value
  }

  /// `"increase"` as `{"increase": {}}`; any other value as it is.
  ///
  /// Two spellings of one action expand to the same value.
  public static func expanded(_ value: JSONValue) -> JSONValue {
    if case .string(let name) = value {
      return .object(JSONObject([(name, .object(JSONObject()))]))
    }
    return value
  }

  /// Decodes `json` as a `T`; a bare string that is not one also stands for the case
  /// without payload of that name.
  /// - Throws: The decoder's error for `json` as written.
  public static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
    do {
      return try JSONValueDecoder().decode(T.self, from: json)
    } catch {
      guard case .string = json,
        let value = try? JSONValueDecoder().decode(T.self, from: expanded(json))
      else { throw error }
      return value
    }
  }

  /// Why `json` is not a value of the enum `type`, in its cases' terms: the case it names is
  /// not one of them, or its payload is not what the case holds.
  public static func problem<T>(with json: JSONValue, as type: T.Type) -> String {
    let typeName = String(reflecting: type)
    guard case .enumeration(_, _, let cases, _)? = TypeFingerprint(of: type).shape else {
      return "\(json.serializedString) is not a \(typeName)"
    }
    func syntax(_ found: TypeSchema.Case) -> String {
      guard !found.fields.isEmpty else { return "\"\(found.name)\"" }
      let fields = found.fields.map { "\"\($0.name)\": \($0.schema)" }.joined(separator: ", ")
      return "{\"\(found.name)\": {\(fields)}}"
    }
    let all = "its cases: " + cases.map(syntax).joined(separator: ", ")
    var name: String?
    switch json {
    case .string(let text): name = text
    case .object(let object) where object.count == 1: name = object.members.first?.key
    default: break
    }
    guard let name else {
      return "\(json.serializedString) is not a case of \(typeName); \(all)"
    }
    guard let found = cases.first(where: { $0.name == name }) else {
      return "'\(name)' is not a case of \(typeName); \(all)"
    }
    return "the case '\(name)' of \(typeName) is written \(syntax(found)), not "
      + json.serializedString
  }

  /// The cases of `type` that carry no payload, as scripts spell them (`"increase"`, or
  /// the raw value of a raw-value enum), and those whose payloads are all `Optional`, sent
  /// as `nil` (`{"setFilter": {}}`, as synthesized `Codable` writes it), in the schema's
  /// order; none for a type that is not an enum.
  public static func payloadFreeCases<T>(of type: T.Type) -> [JSONValue] {
    guard case .enumeration(_, let rawValue, let cases, _) = TypeFingerprint(of: type).shape
    else { return [] }
    return cases.compactMap { item in
      if item.fields.isEmpty { return rawValue == nil ? .string(item.name) : item.rawValue }
      let isAllOptional = item.fields.allSatisfy {
        if case .optional = $0.schema { true } else { false }
      }
      return isAllOptional ? .object(JSONObject([(item.name, .object(JSONObject()))])) : nil
    }
  }
}
