public import ReactorTracing

/// A condition on a state's fields, as `--path-to` takes it: `isLoading=false,value=2`.
///
/// Each comma-separated term is a ``StatePath`` (`tasks.0.title`), `=`, and a value, read as
/// JSON when it parses (`2`, `false`, `null`, `"a,b"`, `[]`) and as a string otherwise
/// (`query=swift`). A state matches when every path holds its value; a pulse's value stands
/// for the pulse. `null` also matches a field its object leaves out, as synthesized `Codable`
/// leaves out a `nil` optional (`filter=null` matches `{"sections": []}`); a path through a
/// missing object or past the end of an array still matches nothing.
public struct StateCondition: Sendable, Hashable, CustomStringConvertible {
  /// The terms: a path and the value it must hold.
  public var terms: [(key: StatePath, value: JSONValue)] {
    zip(keys, values).map { ($0, $1) }
  }

  private var keys: [StatePath]
  private var values: [JSONValue]

  /// Parses `text`.
  /// - Throws: ``ExplorationError/malformedCondition(_:reason:)`` for a term without `=` or
  ///   whose path is empty or malformed.
  public init(parsing text: String) throws(ExplorationError) {
    keys = []
    values = []
    for term in Self.split(text) {
      let trimmed = term.trimmingWhitespace
      guard !trimmed.isEmpty else { continue }
      guard let equals = trimmed.firstIndex(of: "=") else {
        throw .malformedCondition(text, reason: "'\(trimmed)' is not path=value")
      }
      let key = String(trimmed[..<equals]).trimmingWhitespace
      let raw = String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace
      guard !key.isEmpty else {
        throw .malformedCondition(text, reason: "'\(trimmed)' has no field path")
      }
      do throws(StatePathError) {
        keys.append(try StatePath(parsing: key))
      } catch {
        throw .malformedCondition(text, reason: error.description)
      }
      values.append((try? JSONValue(parsing: raw)) ?? .string(raw))
    }
    guard !keys.isEmpty else { throw .malformedCondition(text, reason: "no terms") }
  }

  /// Whether `state` (a state's JSON, pulses replaced by their values or not) matches.
  public func matches(_ state: JSONValue) -> Bool {
    let plain = StatePulse.withoutCounts(state)
    return zip(keys, values).allSatisfy { key, value in
      guard let found = key.value(in: plain) else {
        return value == .null && Self.isLeftOut(key, in: plain)
      }
      return found == value
    }
  }

  /// Whether the field at `key` is missing from an object that is there.
  private static func isLeftOut(_ key: StatePath, in state: JSONValue) -> Bool {
    if case .object? = StatePath(components: key.components.dropLast()).value(in: state) {
      return true
    }
    return false
  }

  /// The condition as it was given, normalized: `isLoading=false,value=2`.
  public var description: String {
    zip(keys, values).map { "\($0)=\($1.serializedString)" }.joined(separator: ",")
  }

  /// Whether two conditions have the same terms in the same order.
  public static func == (lhs: StateCondition, rhs: StateCondition) -> Bool {
    lhs.keys == rhs.keys && lhs.values == rhs.values
  }

  /// Hashes the terms.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(keys)
    hasher.combine(values)
  }

  /// Splits at commas outside JSON strings, arrays and objects of the values.
  ///
  /// A term's path, before its first `=`, is read as plain text: a quote or bracket in a
  /// field's name opens nothing, so that what ``description`` writes reads back as the same
  /// terms (found by the shrink fuzz target, issue 40).
  private static func split(_ text: String) -> [Substring] {
    var parts: [Substring] = []
    var inValue = false
    var depth = 0
    var inString = false
    var escaped = false
    var start = text.startIndex
    for index in text.indices {
      let character = text[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
        continue
      }
      switch character {
      case "=" where !inValue: inValue = true
      case "\"" where inValue: inString = true
      case "[", "{": if inValue { depth += 1 }
      case "]", "}": if inValue { depth -= 1 }
      case "," where depth == 0:
        parts.append(text[start..<index])
        start = text.index(after: index)
        inValue = false
      default: break
      }
    }
    parts.append(text[start...])
    return parts
  }
}
