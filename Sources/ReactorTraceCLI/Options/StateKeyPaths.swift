import ReactorTracing

/// The paths of the fields a trace's state has, for checking `--key` values: from the
/// header's State schema and its initial state.
struct StateKeyPaths {
  /// The header's State schema, when it has one.
  private let schema: TypeSchema?
  /// The initial state's JSON, when it was recorded as JSON.
  private let initialState: JSONValue?

  /// The paths of the state a trace header describes.
  init(_ header: TraceHeader) {
    schema = header.schema.state.shape
    if case .json(let json) = header.initialState {
      initialState = json
    } else {
      initialState = nil
    }
  }

  /// Every path to suggest: `isLoading`, `alertMessage`, `alertMessage.value`, `tasks.0.title`.
  var paths: Set<String> {
    var paths = Set((schema.map(StatePath.fieldPaths(of:)) ?? []).map(\.description))
    paths.formUnion((initialState.map(StatePath.fieldPaths(of:)) ?? []).map(\.description))
    return paths
  }

  /// Whether the state can have a value at `path`.
  func knows(_ path: StatePath) -> Bool {
    if let schema, path.isDescribed(by: schema) { return true }
    if let initialState, path.value(in: initialState) != nil { return true }
    return false
  }

  /// A message naming the first of `keys` that is no known path and listing the known
  /// ones, closest to it first; `nil` when every key is known (or nothing is known).
  func unknown(_ keys: [StatePath]) -> String? {
    let paths = paths
    guard !paths.isEmpty, let key = keys.first(where: { !knows($0) }) else { return nil }
    let text = key.description
    let ranked = paths.sorted {
      (Self.distance(text, $0), $0) < (Self.distance(text, $1), $1)
    }
    return "unknown --key '\(text)': the trace's state has no such field; its fields, "
      + "closest first: " + ranked.joined(separator: ", ")
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
