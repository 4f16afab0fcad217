/// `Value` as an `Encodable` type, when it is one whose values a dynamic cast to
/// `any Encodable` gives unchanged: looked up once per recording, where the cast, for every
/// value, searched the conformance tables.
///
/// Optionals (and other `ExpressibleByNilLiteral` types) and existentials are left out: a
/// dynamic cast unwraps them, so they keep taking it.
///
/// `@unchecked Sendable`: it holds only a metatype, which never changes.
struct StaticEncodable: @unchecked Sendable {
  let type: any Encodable.Type

  init?<Value>(_: Value.Type) {
    guard !(Value.self is any ExpressibleByNilLiteral.Type),
      let type = Value.self as? any Encodable.Type
    else { return nil }
    self.type = type
  }
}
