import ReactorTracing

/// Values already decoded from recorded JSON, so that a replay decodes a recurring mutation
/// (`increaseValue`, `setLoading(true)`) once instead of at every step.
///
/// Used only for values that hold no references but those of standard value types: those of
/// plain-data types (`_isPOD`: a value is its bytes), and others whose every part, as a
/// `Mirror` shows it, is such a value, a string, or a standard collection of them. Such a
/// value carries nothing a later decoding could give differently. Only JSON that is identical
/// (same cases, not just equal numbers) finds an entry. At most ``capacity`` entries; a new
/// one replaces the oldest.
final class DecodedValueCache<Value> {
  /// The most entries kept.
  static var capacity: Int { 16 }

  // Touched only by `index(of:)`, `value(at:)` and `remember(_:for:)`, which call out to nothing
  // between accesses: no dynamic exclusivity checks.
  // The JSON and the value of each entry, in two arrays: an array of pairs would look up the
  // pair type's generic metadata at every access.
  @exclusivity(unchecked) private var jsons: [JSONValue] = []
  @exclusivity(unchecked) private var values: [Value] = []
  /// The storage of each entry's JSON array or object, compared before anything else.
  @exclusivity(unchecked) private var storages: [PayloadStorage] = []
  @exclusivity(unchecked) private var oldest = 0
  /// Where to start looking: after the entry found last (mutations recur in cycles).
  @exclusivity(unchecked) private var hint = 0

  /// Whether every value of this type is cached.
  private let isPOD = _isPOD(Value.self)
  /// Whether values of this type may be cached: plain data, or a struct, enum or tuple
  /// that may hold no references in a given value.
  let isEnabled = _isPOD(Value.self) || !(Value.self is AnyClass)

  /// Where the value decoded from `json` is cached, or `nil` when it is not: then decode it
  /// and ``remember(_:for:)`` it.
  ///
  /// A lookup and an insertion rather than one call taking the decoding as a closure: a
  /// replay's closure captures the line it names in errors, and building it at every step cost
  /// more than the lookup. An index rather than an optional value: in unspecialized code, an
  /// optional of `Value` looks up its generic metadata at every use.
  func index(of json: JSONValue) -> Int? {
    guard isEnabled else { return nil }
    // A payload the reader read before is usually the very same storage: look for that
    // first, then compare values.
    if let storage = PayloadStorage(json) {
      let count = storages.count
      var index = hint < count ? hint : 0
      for _ in 0..<count {
        if storages[index] == storage {
          hint = index &+ 1
          return index
        }
        index = index &+ 1 == count ? 0 : index &+ 1
      }
    }
    for index in jsons.indices where Self.isIdentical(jsons[index], json) {
      return index
    }
    return nil
  }

  /// The value cached at `index`, which ``index(of:)`` returned.
  func value(at index: Int) -> Value { values[index] }

  /// Caches `value`, decoded from `json`, when values of its type may be cached and it holds
  /// only values.
  func remember(_ value: Value, for json: JSONValue) {
    guard isEnabled, isPOD || Self.holdsOnlyValues(value, budget: 256) else { return }
    if jsons.count < Self.capacity {
      jsons.append(json)
      values.append(value)
      storages.append(PayloadStorage(json) ?? PayloadStorage())
    } else {
      jsons[oldest] = json
      values[oldest] = value
      storages[oldest] = PayloadStorage(json) ?? PayloadStorage()
      oldest = (oldest + 1) % Self.capacity
    }
  }

  /// Whether `value` holds no class instances, nor anything a custom mirror could hide,
  /// looking at no more than about `budget` parts.
  private static func holdsOnlyValues(_ value: Any, budget: Int) -> Bool {
    var budget = budget
    return holdsOnlyValues(value, budget: &budget)
  }

  private static func holdsOnlyValues(_ value: Any, budget: inout Int) -> Bool {
    budget -= 1
    guard budget >= 0 else { return false }
    switch value {
    case is String, is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8,
      is UInt16, is UInt32, is UInt64, is Double, is Float:
      return true
    default:
      break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct, .enum, .tuple, .optional, .collection, .dictionary, .set:
      // Standard collections and optionals show their elements; other types with a custom
      // mirror may hide parts.
      if value is any CustomReflectable, !isStandardContainer(value) { return false }
      return mirror.children.allSatisfy { holdsOnlyValues($0.value, budget: &budget) }
    default:
      return false
    }
  }

  private static func isStandardContainer(_ value: Any) -> Bool {
    let name = String(reflecting: type(of: value))
    return name.hasPrefix("Swift.Array<") || name.hasPrefix("Swift.Dictionary<")
      || name.hasPrefix("Swift.Set<") || name.hasPrefix("Swift.Optional<")
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

/// Where a JSON array's elements or an object's members are in memory.
///
/// Two values with the same storage are identical. An entry's storage stays allocated while it
/// is cached, so no other value can take its address meanwhile.
private struct PayloadStorage: Equatable {
  var address: UnsafeRawPointer?
  var count = 0

  /// No storage: equal to none of a value's.
  init() {}

  /// The storage of an array or object; `nil` for other values.
  init?(_ json: JSONValue) {
    switch json {
    case .array(let elements):
      (address, count) = elements.withUnsafeBufferPointer {
        (UnsafeRawPointer($0.baseAddress), $0.count)
      }
    case .object(let object):
      (address, count) = object.members.withUnsafeBufferPointer {
        (UnsafeRawPointer($0.baseAddress), $0.count)
      }
    default:
      return nil
    }
    // Empty arrays share one storage, which tells nothing.
    guard address != nil, count > 0 else { return nil }
  }
}
