import ReactorTracing

/// The dotted paths of the fields a trace's state has, for checking `--key` values: from the
/// header's State schema and its initial state.
struct StateKeyPaths {
  /// Every known path: `isLoading`, `alertMessage`, `alertMessage.value`.
  private(set) var paths: Set<String> = []

  /// The paths of the state a trace header describes.
  init(_ header: TraceHeader) {
    if let shape = header.schema.state.shape { collect(shape, prefix: "") }
    if case .json(let json) = header.initialState { collect(json, prefix: "") }
  }

  /// A message naming the first of `keys` that is no known path and listing the known
  /// ones, closest to it first; `nil` when every key is known (or nothing is known).
  func unknown(_ keys: [String]) -> String? {
    guard !paths.isEmpty, let key = keys.first(where: { !paths.contains($0) }) else {
      return nil
    }
    let ranked = paths.sorted {
      (Self.distance(key, $0), $0) < (Self.distance(key, $1), $1)
    }
    return "unknown --key '\(key)': the trace's state has no such field; its fields, "
      + "closest first: " + ranked.joined(separator: ", ")
  }

  private mutating func collect(_ schema: TypeSchema, prefix: String) {
    switch schema {
    case .structure(_, let fields, _):
      for field in fields {
        let path = prefix + field.name
        paths.insert(path)
        collect(field.schema, prefix: path + ".")
      }
    case .optional(let wrapped), .wrapper(_, let wrapped):
      collect(wrapped, prefix: prefix)
    default:
      break
    }
  }

  private mutating func collect(_ json: JSONValue, prefix: String) {
    guard case .object(let object) = json else { return }
    for (key, value) in object.members {
      paths.insert(prefix + key)
      collect(value, prefix: prefix + key + ".")
    }
  }

  /// The Levenshtein distance between two strings, by characters.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
