public import ReactorStateMachines
import ReactorTracing

extension StateAbstraction {
  /// The abstraction as one line of text that ``init(summaryText:)`` reads back: what a
  /// summary line's `abstraction` holds and what an abstraction file saves.
  ///
  /// `whole` for the whole state; `key:isLoading,user.name` for a projection onto fields;
  /// `fields:alertMessage=event,isLoading=value,query=empty` for one rule per top-level
  /// field (``FieldAbstraction`` raw values). Names escape `%`, `,`, `=` and `:` as `%25`,
  /// `%2C`, `%3D` and `%3A`. Equal abstractions give equal text, so summaries made with the
  /// same one group together.
  public var summaryText: String {
    if isWholeState { return "whole" }
    if rules.isEmpty {
      return "key:"
        + keyPaths.map { $0.components.map(Self.escape).joined(separator: ".") }
        .joined(separator: ",")
    }
    return "fields:"
      + rules.map { Self.escape($0.name) + "=" + $0.abstraction.rawValue }
      .joined(separator: ",")
  }

  /// Reads an abstraction written by ``summaryText``.
  ///
  /// - Parameter summaryText: The text, surrounding whitespace ignored.
  /// - Throws: ``FleetError/malformedAbstraction(_:)`` naming what is wrong.
  public init(summaryText: String) throws(FleetError) {
    let text = summaryText.trimmingWhitespace
    if text == "whole" {
      self = .wholeState
      return
    }
    if text.hasPrefix("key:") {
      var paths: [StatePath] = []
      for path in text.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false) {
        let keys = try path.split(separator: ".", omittingEmptySubsequences: false).map {
          (key) throws(FleetError) in try Self.unescape(key)
        }
        guard !keys.contains(where: \.isEmpty) else {
          throw .malformedAbstraction("empty field name in '\(text)'")
        }
        paths.append(StatePath(components: keys))
      }
      self.init(keyPaths: paths)
      return
    }
    if text.hasPrefix("fields:") {
      var rules: [FieldRule] = []
      for item in text.dropFirst(7).split(separator: ",", omittingEmptySubsequences: false) {
        let parts = item.split(separator: "=", omittingEmptySubsequences: false)
        guard parts.count == 2, let how = FieldAbstraction(rawValue: String(parts[1])) else {
          throw .malformedAbstraction(
            "'\(item)' is not NAME=HOW, HOW one of "
              + FieldAbstraction.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let name = try Self.unescape(parts[0])
        guard !name.isEmpty else { throw .malformedAbstraction("empty field name in '\(text)'") }
        rules.append(FieldRule(name: name, abstraction: how))
      }
      self.init(rules: rules)
      return
    }
    throw .malformedAbstraction(
      "'\(text.prefix(80))' starts with none of 'whole', 'key:', 'fields:'")
  }

  private static func escape(_ name: String) -> String {
    var result = ""
    for character in name {
      switch character {
      case "%": result += "%25"
      case ",": result += "%2C"
      case "=": result += "%3D"
      case ":": result += "%3A"
      default: result.append(character)
      }
    }
    return result
  }

  private static func unescape(_ text: Substring) throws(FleetError) -> String {
    var result = ""
    var index = text.startIndex
    while index < text.endIndex {
      if text[index] == "%" {
        let end = text.index(index, offsetBy: 3, limitedBy: text.endIndex) ?? text.endIndex
        switch text[index..<end] {
        case "%25": result += "%"
        case "%2C": result += ","
        case "%3D": result += "="
        case "%3A": result += ":"
        default: throw .malformedAbstraction("unknown escape '\(text[index..<end])' in '\(text)'")
        }
        index = end
      } else {
        result.append(text[index])
        index = text.index(after: index)
      }
    }
    return result
  }
}

extension String {
  /// The text without leading and trailing spaces, tabs and newlines.
  fileprivate var trimmingWhitespace: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
    let end = lastIndex(where: { !isSpace($0) })!
    return String(self[start...end])
  }
}
