package import ReactorTracing

/// Values written for a person: cut by meaning (whole elements, a count of the rest), never
/// in the middle of a word, and `nil` for a missing or null value.
package enum ValueText {
  /// The most characters of a value's text, about, before the rest is counted instead.
  package static let budget = 34

  /// `nil`, `true`, `2`, `"reactor"`, `["octo/swift-1", … 2 more]`, `{id: 1, … 2 more}`.
  package static func short(_ value: JSONValue?, budget: Int = budget) -> String {
    guard let value else { return "nil" }
    switch value {
    case .null: return "nil"
    case .string(let string): return quoted(string, budget: budget)
    case .array(let elements):
      return list(
        elements.lazy.map { short($0, budget: budget - 4) }, count: elements.count,
        open: "[", close: "]", budget: budget)
    case .object(let object):
      return list(
        object.members.lazy.map { $0.key + ": " + short($0.value, budget: budget - 4) },
        count: object.count, open: "{", close: "}", budget: budget)
    default: return value.serializedString
    }
  }

  /// A string in quotes, cut at a word boundary near `budget` with `…`.
  package static func quoted(_ string: String, budget: Int) -> String {
    let line = string.singleLine
    guard line.count > budget - 2 else { return "\"" + line + "\"" }
    var cut = line.prefix(max(budget - 3, 1))
    if let space = cut.lastIndex(of: " "),
      cut.distance(from: cut.startIndex, to: space) > budget / 2
    {
      cut = cut[..<space]
    }
    return "\"" + cut + "…\""
  }

  /// The first elements that fit in `budget`, and how many more there are.
  private static func list(
    _ texts: some Sequence<String>, count: Int, open: String, close: String, budget: Int
  ) -> String {
    guard count > 0 else { return open + close }
    var shown: [String] = []
    var length = 2
    for text in texts {
      let more = count - shown.count - 1
      let tail = more > 0 ? ", … \(more) more".count : 0
      if !shown.isEmpty && length + text.count + 2 + tail > budget { break }
      shown.append(text)
      length += text.count + 2
      if length > budget { break }
    }
    let rest = count - shown.count
    return open + shown.joined(separator: ", ") + (rest > 0 ? ", … \(rest) more" : "") + close
  }

  /// The number of characters or items, for strings, arrays and objects.
  package static func size(of value: JSONValue?) -> Int? {
    switch value {
    case .string(let string)?: string.isEmpty ? 0 : 1
    case .array(let elements)?: elements.count
    case .object(let object)?: object.count
    default: nil
    }
  }

  /// `empty`, `1 item`, `3 items`.
  package static func items(_ count: Int) -> String {
    switch count {
    case 0: "empty"
    case 1: "1 item"
    default: "\(count) items"
    }
  }
}
