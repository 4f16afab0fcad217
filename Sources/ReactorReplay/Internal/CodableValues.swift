import ReactorTracing

/// Encodes and decodes values of types that are Codable only at run time.
enum CodableValues {
  /// Whether values of `type` can be both encoded and decoded.
  static func isCodable<T>(_ type: T.Type) -> Bool {
    (type as Any.Type) is any (Encodable & Decodable).Type
  }

  /// `json` decoded as `type`, or `nil` when it does not decode.
  static func decode<T>(_ type: T.Type, from json: JSONValue) -> T? {
    try? decodeOrThrow(type, from: json)
  }

  /// `json` decoded as `type`.
  /// - Throws: The decoding error, or a ``NotDecodable`` when the type is not Decodable.
  static func decodeOrThrow<T>(_ type: T.Type, from json: JSONValue) throws -> T {
    guard let decodable = type as? any Decodable.Type else { throw NotDecodable() }
    return try open(decodable, json) as! T
  }

  private static func open<D: Decodable>(_ type: D.Type, _ json: JSONValue) throws -> Any {
    try JSONValueDecoder().decode(type, from: json)
  }

  /// The value's encoding, or `nil` when it is not Encodable or fails to encode.
  static func encode(_ value: Any) throws -> JSONValue? {
    guard let encodable = value as? any Encodable else { return nil }
    return try JSONValueEncoder().encode(encodable)
  }

  /// A function that encodes values of `type`, or `nil` when it is not Encodable: the
  /// conformance is looked up once, not for every value.
  static func encoder<T>(for type: T.Type) -> ((T) throws -> JSONValue)? {
    guard let encodable = type as? any Encodable.Type else { return nil }
    return encoder(opening: encodable, as: type)
  }

  private static func encoder<E: Encodable, T>(opening _: E.Type, as _: T.Type)
    -> (T) throws -> JSONValue
  {
    precondition(E.self == T.self)
    let encoder = JSONValueEncoder()
    // `E` is `T`, found by the cast above.
    return { value in try encoder.encode(unsafeBitCast(value, to: E.self)) }
  }

  /// A function that hashes the canonical JSON of values of `type`, as a trace hashes a
  /// state, or `nil` when it is not Encodable: the conformance is looked up once, not for
  /// every value.
  static func canonicalHasher<T>(for type: T.Type) -> ((T) throws -> TraceHash)? {
    guard let encodable = type as? any Encodable.Type else { return nil }
    return canonicalHasher(opening: encodable, as: type)
  }

  private static func canonicalHasher<E: Encodable, T>(opening _: E.Type, as _: T.Type)
    -> (T) throws -> TraceHash
  {
    precondition(E.self == T.self)
    let encoder = CanonicalJSONEncoder()
    // `E` is `T`, found by the cast above.
    return { value in try encoder.hash(unsafeBitCast(value, to: E.self)) }
  }

  struct NotDecodable: Error {}
}
