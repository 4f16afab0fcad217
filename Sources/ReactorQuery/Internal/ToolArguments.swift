import ReactorTracing

/// A tool's arguments, checked one by one: each getter names the argument and what it must
/// be when it is not.
struct ToolArguments {
  private let members: JSONObject

  /// The arguments of a call; `null` or absent is no argument.
  /// - Throws: ``QueryError/invalidArgument(name:reason:)`` for arguments that are not an
  ///   object, or that name an argument the tool does not take.
  init(_ value: JSONValue?, accepted: [String]) throws(QueryError) {
    switch value {
    case nil, .null?: members = JSONObject()
    case .object(let object)?: members = object
    case let other?:
      throw .invalidArgument(name: "arguments", reason: "must be an object, not \(other.kindName)")
    }
    for key in members.keys where !accepted.contains(key) {
      throw .invalidArgument(
        name: String(key.prefix(100)),
        reason: "is not an argument of this tool; it takes " + accepted.joined(separator: ", "))
    }
  }

  /// A string argument; `nil` when absent.
  func string(_ name: String, maximumLength: Int = 4096) throws(QueryError) -> String? {
    guard let value = members[name], value != .null else { return nil }
    guard case .string(let text) = value else {
      throw .invalidArgument(name: name, reason: "must be a string, not \(value.kindName)")
    }
    guard text.utf8.count <= maximumLength else {
      throw .invalidArgument(name: name, reason: "is longer than \(maximumLength) bytes")
    }
    return text
  }

  /// A string argument that must be given.
  func requiredString(_ name: String, maximumLength: Int = 4096) throws(QueryError) -> String {
    guard let text = try string(name, maximumLength: maximumLength) else {
      throw .invalidArgument(name: name, reason: "is required")
    }
    return text
  }

  /// An integer argument within `range`; `nil` when absent.
  func integer(_ name: String, in range: ClosedRange<Int>) throws(QueryError) -> Int? {
    guard let value = members[name], value != .null else { return nil }
    let number: Int?
    switch value {
    case .int, .uint: number = value.intValue
    case .double(let double): number = double.rounded() == double ? value.intValue : nil
    case .string(let text): number = Int(text)
    default:
      throw .invalidArgument(name: name, reason: "must be an integer, not \(value.kindName)")
    }
    guard let number, range.contains(number) else {
      throw .invalidArgument(
        name: name, reason: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  /// An integer argument that must be given.
  func requiredInteger(_ name: String, in range: ClosedRange<Int>) throws(QueryError) -> Int {
    guard let number = try integer(name, in: range) else {
      throw .invalidArgument(name: name, reason: "is required")
    }
    return number
  }

  /// A reactor: an id (integer) or a name or type (string); `nil` when absent.
  func reactor(_ name: String = "reactor") throws(QueryError) -> String? {
    guard let value = members[name], value != .null else { return nil }
    switch value {
    case .string: return try string(name, maximumLength: 1024)
    case .int, .uint, .double:
      return String(try integer(name, in: 1...Int(Int32.max)) ?? 0)
    default:
      throw .invalidArgument(
        name: name, reason: "must be a reactor's id or its name or type, not \(value.kindName)")
    }
  }

  /// One of `choices`; `nil` when absent.
  func choice(_ name: String, _ choices: [String]) throws(QueryError) -> String? {
    guard let text = try string(name, maximumLength: 100) else { return nil }
    guard choices.contains(text) else {
      throw .invalidArgument(
        name: name, reason: "must be one of " + choices.joined(separator: ", "))
    }
    return text
  }

  /// A Boolean argument; `false` when absent.
  func flag(_ name: String) throws(QueryError) -> Bool {
    guard let value = members[name], value != .null else { return false }
    guard case .bool(let flag) = value else {
      throw .invalidArgument(name: name, reason: "must be true or false, not \(value.kindName)")
    }
    return flag
  }

  /// A number argument within `range`; `nil` when absent.
  func number(_ name: String, in range: ClosedRange<Double>) throws(QueryError) -> Double? {
    guard let value = members[name], value != .null else { return nil }
    let number: Double?
    switch value {
    case .int(let int): number = Double(int)
    case .uint(let uint): number = Double(uint)
    case .double(let double): number = double
    case .string(let text): number = Double(text)
    default:
      throw .invalidArgument(name: name, reason: "must be a number, not \(value.kindName)")
    }
    guard let number, number.isFinite, range.contains(number) else {
      throw .invalidArgument(
        name: name, reason: "must be a number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  /// A list of strings (one string is a list of one); empty when absent.
  func strings(_ name: String, maximumCount: Int = 100, maximumLength: Int = 4096)
    throws(QueryError) -> [String]
  {
    guard let value = members[name], value != .null else { return [] }
    let elements: [JSONValue]
    switch value {
    case .string: elements = [value]
    case .array(let array): elements = array
    default:
      throw .invalidArgument(
        name: name, reason: "must be a list of strings, not \(value.kindName)")
    }
    guard elements.count <= maximumCount else {
      throw .invalidArgument(name: name, reason: "holds more than \(maximumCount) items")
    }
    var result: [String] = []
    for element in elements {
      guard case .string(let text) = element else {
        throw .invalidArgument(
          name: name, reason: "must hold strings only, not \(element.kindName)")
      }
      guard text.utf8.count <= maximumLength, !text.utf8.contains(0) else {
        throw .invalidArgument(
          name: name, reason: "holds an item longer than \(maximumLength) bytes, or a NUL")
      }
      result.append(text)
    }
    return result
  }
}
