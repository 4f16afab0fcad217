import ReactorTracing

/// Values already decoded from recorded JSON, so that a replay decodes a recurring mutation
/// (`increaseValue`, `setLoading(true)`) once instead of at every step.
///
/// Used only for plain-data types (`_isPOD`: no references, so a value is its bytes and
/// carries nothing a later decoding could give differently), and only JSON that is identical
/// (same cases, not just equal numbers) finds an entry. At most ``capacity`` entries; a new
/// one replaces the oldest.
final class DecodedValueCache<Value> {
  /// The most entries kept.
  static var capacity: Int { 16 }

  private var entries: [(json: JSONValue, value: Value)] = []
  private var oldest = 0

  /// Whether values of this type are cached at all.
  let isEnabled = _isPOD(Value.self)

  /// The value decoded from `json`: a cached one, or what `decode` returns, then cached.
  func value(for json: JSONValue, decode: (JSONValue) throws -> Value) rethrows -> Value {
    guard isEnabled else { return try decode(json) }
    // A payload the reader read before is usually the very same storage: look for that
    // first, then compare values.
    for entry in entries where Self.isSameStorage(entry.json, json) { return entry.value }
    for entry in entries where Self.isIdentical(entry.json, json) { return entry.value }
    let value = try decode(json)
    if entries.count < Self.capacity {
      entries.append((json, value))
    } else {
      entries[oldest] = (json, value)
      oldest = (oldest + 1) % Self.capacity
    }
    return value
  }

  /// Whether two arrays or objects share their storage, and so are identical.
  private static func isSameStorage(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.array(let a), .array(let b)):
      a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
      }
    case (.object(let a), .object(let b)):
      a.members.withUnsafeBufferPointer { a in
        b.members.withUnsafeBufferPointer { b in
          a.baseAddress == b.baseAddress && a.count == b.count
        }
      }
    default: false
    }
  }

  /// Whether two values are the same JSON: same cases, strings with the same UTF-8, and
  /// numbers of the same case and value.
  private static func isIdentical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.uint(let a), .uint(let b)): a == b
    case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
    case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy(isIdentical)
    case (.object(let a), .object(let b)):
      // A payload the reader read before is often the very same storage.
      a.members.withUnsafeBufferPointer { a in
        b.members.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
      }
        || a.count == b.count
          && zip(a.members, b.members).allSatisfy {
            $0.key.utf8.elementsEqual($1.key.utf8) && isIdentical($0.value, $1.value)
          }
    default: false
    }
  }
}
