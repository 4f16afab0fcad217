import ReactorTracing

/// The nodes of the last few distinct projected states, so that a trace that keeps going
/// back and forth between a few of them (`isLoading` on, off, on...) finds each node
/// without serializing the fields again.
struct RecentProjections {
  private static let capacity = 8
  private var entries: [(values: [JSONValue?], node: Int)] = []

  /// The node of a projection with exactly these values, if it is among the recent ones.
  func node(for values: [JSONValue?]) -> Int? {
    entries.first { entry in
      zip(entry.values, values).allSatisfy { old, new in
        switch (old, new) {
        case (nil, nil): true
        case (let old?, let new?): old.isIdentical(to: new)
        default: false
        }
      }
    }?.node
  }

  /// Remembers the node of a projection, forgetting the oldest beyond a few.
  mutating func remember(_ values: [JSONValue?], node: Int) {
    entries.insert((values, node), at: 0)
    if entries.count > Self.capacity { entries.removeLast() }
  }
}

extension JSONValue {
  /// Whether two values are the same case with the same contents, byte for byte, so that
  /// they serialize the same (`==` compares numbers by value and strings by canonical
  /// equivalence).
  fileprivate func isIdentical(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.null, .null): true
    case (.bool(let old), .bool(let new)): old == new
    case (.int(let old), .int(let new)): old == new
    case (.uint(let old), .uint(let new)): old == new
    case (.double(let old), .double(let new)): old.bitPattern == new.bitPattern
    case (.string(let old), .string(let new)): old.utf8.elementsEqual(new.utf8)
    case (.array(let old), .array(let new)):
      old.count == new.count && zip(old, new).allSatisfy { $0.isIdentical(to: $1) }
    case (.object(let old), .object(let new)):
      old.count == new.count
        && zip(old.members, new.members).allSatisfy { old, new in
          old.key.utf8.elementsEqual(new.key.utf8) && old.value.isIdentical(to: new.value)
        }
    default: false
    }
  }
}
