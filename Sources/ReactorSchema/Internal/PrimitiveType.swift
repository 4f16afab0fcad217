/// The types decoders decode directly, which schemas name instead of probing: `Bool`,
/// `String`, `Double`, `Float` and the standard integers.
enum PrimitiveType {
  /// The schema name of `type` if it is a primitive.
  static func name(of type: Any.Type) -> String? {
    names[ObjectIdentifier(type)]
  }

  private static let names: [ObjectIdentifier: String] = {
    let types: [(Any.Type, String)] = [
      (Bool.self, "Bool"), (String.self, "String"), (Double.self, "Double"), (Float.self, "Float"),
      (Int.self, "Int"), (Int8.self, "Int8"), (Int16.self, "Int16"), (Int32.self, "Int32"),
      (Int64.self, "Int64"), (Int128.self, "Int128"), (UInt.self, "UInt"), (UInt8.self, "UInt8"),
      (UInt16.self, "UInt16"), (UInt32.self, "UInt32"), (UInt64.self, "UInt64"),
      (UInt128.self, "UInt128"),
    ]
    return Dictionary(uniqueKeysWithValues: types.map { (ObjectIdentifier($0.0), $0.1) })
  }()

  /// A value of the primitive `T`: `false`, `string`, `integer` (truncated to fit) or zero.
  static func value<T>(of type: T.Type, string: String, integer: Int) -> T? {
    if let boolean = false as? T { return boolean }
    if let text = string as? T { return text }
    if let integerType = T.self as? any FixedWidthInteger.Type {
      return integerValue(of: integerType, integer) as? T
    }
    if let number = 0.0 as? T { return number }
    if let number = Float(0) as? T { return number }
    return nil
  }

  private static func integerValue<I: FixedWidthInteger>(of type: I.Type, _ integer: Int) -> I {
    I(truncatingIfNeeded: integer)
  }
}
