import ReactorJSON

/// Reads the members of a JSON object that a trace line must have, with errors that name the
/// member and what was wrong.
struct JSONFields {
  /// The largest sequence number, id or count a trace may hold: 2⁵³ − 1.
  ///
  /// It is the largest integer every JSON reader reads exactly. Far beyond any recording, and far enough below `Int.max`
  /// that arithmetic on such numbers (the next `seq`, a sum of counts) cannot overflow.
  static let largestInteger = 1 << 53 - 1

  let object: JSONObject

  init(_ json: JSONValue, what: String) throws(TraceFormatError) {
    guard case .object(let object) = json else {
      throw TraceFormatError("\(what) must be a JSON object, found \(json.kindName)")
    }
    self.object = object
  }

  func value(_ key: String) throws(TraceFormatError) -> JSONValue {
    guard let value = object[key] else { throw TraceFormatError("missing field '\(key)'") }
    return value
  }

  func optionalValue(_ key: String) -> JSONValue? {
    object[key]
  }

  func string(_ key: String) throws(TraceFormatError) -> String {
    let value = try value(key)
    guard case .string(let string) = value else {
      throw TraceFormatError("'\(key)' must be a string, found \(value.kindName)")
    }
    return string
  }

  func optionalString(_ key: String) throws(TraceFormatError) -> String? {
    guard let value = object[key], value != .null else { return nil }
    guard case .string(let string) = value else {
      throw TraceFormatError("'\(key)' must be a string, found \(value.kindName)")
    }
    return string
  }

  func int64(_ key: String, minimum: Int64) throws(TraceFormatError) -> Int64 {
    let value = try value(key)
    let number: Int64? =
      switch value {
      case .int(let number): number
      case .double(let double): Int64(exactly: double)
      default: nil
      }
    guard let number else {
      throw TraceFormatError("'\(key)' must be an integer, found \(value.serializedString)")
    }
    guard number >= minimum else {
      throw TraceFormatError("'\(key)' must be at least \(minimum), found \(number)")
    }
    return number
  }

  /// A sequence number, id or count: at least `minimum`, at most ``largestInteger``.
  func integer(_ key: String, minimum: Int) throws(TraceFormatError) -> Int {
    let number = Int(try int64(key, minimum: Int64(minimum)))
    guard number <= Self.largestInteger else {
      throw TraceFormatError("'\(key)' must be at most \(Self.largestInteger), found \(number)")
    }
    return number
  }

  func optionalInteger(_ key: String, minimum: Int) throws(TraceFormatError) -> Int? {
    guard let value = object[key], value != .null else { return nil }
    return try integer(key, minimum: minimum)
  }

  func optionalBool(_ key: String) throws(TraceFormatError) -> Bool? {
    guard let value = object[key], value != .null else { return nil }
    guard case .bool(let bool) = value else {
      throw TraceFormatError("'\(key)' must be true or false, found \(value.kindName)")
    }
    return bool
  }
}
