/// One change in a state diff: how a trace stores a state as the difference from the state
/// before it.
///
/// Applying a mutation event's operations in order to the previous state gives the new state.
/// In a trace each operation is a JSON object with a path `p` and one more member:
///
/// | Operation | JSON | Meaning |
/// |---|---|---|
/// | set | `{"p":["count"],"v":3}` | Put the value at the path (add or replace a member, replace an element, or with the empty path the whole state). |
/// | remove | `{"p":["draft"],"remove":true}` | Remove the object member. |
/// | append | `{"p":["tasks"],"append":[…]}` | Append elements to the array. |
/// | truncate | `{"p":["tasks"],"truncate":2}` | Keep only the array's first elements. |
public enum TraceDiffOperation: Hashable, Sendable {
  /// Puts a value at the path.
  case set([JSONPathComponent], JSONValue)
  /// Removes the object member at the path.
  case remove([JSONPathComponent])
  /// Appends elements to the array at the path.
  case append([JSONPathComponent], [JSONValue])
  /// Shortens the array at the path to this many elements.
  case truncate([JSONPathComponent], Int)

  /// Where the operation applies.
  public var path: [JSONPathComponent] {
    switch self {
    case .set(let path, _), .remove(let path), .append(let path, _), .truncate(let path, _): path
    }
  }
}

extension TraceDiffOperation {
  /// The operation as it is written in a trace.
  public var json: JSONValue {
    var object = JSONObject()
    object["p"] = .array(path.map(\.json))
    switch self {
    case .set(_, let value): object["v"] = value
    case .remove: object["remove"] = .bool(true)
    case .append(_, let values): object["append"] = .array(values)
    case .truncate(_, let count): object["truncate"] = .int(Int64(count))
    }
    return .object(object)
  }

  /// Appends the canonical serialization of ``json`` to `bytes`, without building it.
  func write(to bytes: inout [UInt8]) {
    switch self {
    case .set(let path, let value): Self.write(path: path, .set(value), to: &bytes)
    case .remove(let path): Self.write(path: path, .remove, to: &bytes)
    case .append(let path, let values): Self.write(path: path, .append(values[...]), to: &bytes)
    case .truncate(let path, let count): Self.write(path: path, .truncate(count), to: &bytes)
    }
  }

  /// What an operation does at its path, for writing one without building it.
  enum Change {
    case set(JSONValue)
    case remove
    case append(ArraySlice<JSONValue>)
    case truncate(Int)
  }

  /// Appends the canonical serialization of the operation that makes `change` at `path`.
  static func write(path: [JSONPathComponent], _ change: Change, to bytes: inout [UInt8]) {
    // Members in key order: "append" < "p" < "remove" < "truncate" < "v".
    bytes.append(UInt8(ascii: "{"))
    if case .append(let values) = change {
      bytes.append(contentsOf: #""append":["#.utf8)
      for (index, value) in values.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        JSONWriter.write(value, to: &bytes)
      }
      bytes.append(contentsOf: "],".utf8)
    }
    bytes.append(contentsOf: #""p":["#.utf8)
    for (index, component) in path.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      switch component {
      case .key(let key): JSONWriter.writeString(key, to: &bytes)
      case .index(let index): JSONWriter.writeInteger(Int64(index), to: &bytes)
      }
    }
    bytes.append(UInt8(ascii: "]"))
    switch change {
    case .set(let value):
      bytes.append(contentsOf: #","v":"#.utf8)
      JSONWriter.write(value, to: &bytes)
    case .remove:
      bytes.append(contentsOf: #","remove":true"#.utf8)
    case .append:
      break
    case .truncate(let count):
      bytes.append(contentsOf: #","truncate":"#.utf8)
      JSONWriter.writeInteger(Int64(count), to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
  }

  /// Reads an operation written in a trace.
  /// - Throws: A reason naming what is wrong, for the reader to report with the line number.
  public init(json: JSONValue) throws(TraceFormatError) {
    guard case .object(let object) = json else {
      throw TraceFormatError("a diff operation must be an object, found \(json.kindName)")
    }
    guard case .array(let components)? = object["p"] else {
      throw TraceFormatError("a diff operation needs a path 'p' (an array)")
    }
    var path: [JSONPathComponent] = []
    path.reserveCapacity(components.count)
    for component in components {
      switch component {
      case .string(let key): path.append(.key(key))
      case .int(let index) where index >= 0 && index <= Int64(Int.max):
        path.append(.index(Int(index)))
      default:
        throw TraceFormatError(
          "a diff path holds strings and non-negative integers, found \(component.kindName)")
      }
    }
    if let value = object["v"] {
      self = .set(path, value)
    } else if object["remove"] == .bool(true) {
      self = .remove(path)
    } else if let appended = object["append"] {
      guard case .array(let values) = appended else {
        throw TraceFormatError("'append' must be an array, found \(appended.kindName)")
      }
      self = .append(path, values)
    } else if let truncated = object["truncate"] {
      guard let count = truncated.intValue, count >= 0 else {
        throw TraceFormatError("'truncate' must be a non-negative integer")
      }
      self = .truncate(path, count)
    } else {
      throw TraceFormatError(
        "a diff operation needs one of 'v', 'remove', 'append' or 'truncate'")
    }
  }
}
