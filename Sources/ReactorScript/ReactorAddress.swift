public import ReactorTracing

/// Where an app script's step sends its action: a reactor by the name the app's session
/// factory gave it, or a reactor it holds (a cell, a child screen) by a path through the
/// states that hold it.
///
/// Written as the name, then `/` and a step down per level:
///
/// ```
/// edit                      the reactor recorded with the name "edit"
/// TaskEditReactor[-1]       the latest live reactor of that type (or with that name)
/// list/cells.0              the reactor that list's state holds at cells.0
/// list/cells[task.id=2]     the one of list's cells whose own state has task.id == 2
/// ```
///
/// Each step down is a ``ReactorTracing/StatePath`` into the state of the reactor reached so
/// far, as its session records it, where a reactor it holds is a reference,
/// `{"reactor": 3}`. A step may end in a selector, `[key=value]`: the path then reaches an
/// array of references, and the selector picks the one reactor whose own recorded state has
/// `value` at the state path `key` (`value` is read as JSON when it parses, `2`, `true`,
/// `"Buy milk"`, else as a string). A position (`cells.0`) is what a tap on a row of a table
/// is; a selector stays on the same row while rows before it come and go.
public struct ReactorAddress: Sendable, Hashable, CustomStringConvertible {
  /// One step from a reactor down to a reactor its state holds.
  public struct Step: Sendable, Hashable, CustomStringConvertible {
    /// Where, in the holding reactor's recorded state, the reference (or with a selector,
    /// the array of references) is.
    public var path: StatePath
    /// Which element of the array is the reactor; `nil` when `path` reaches one reference.
    public var selector: Selector?

    /// A step down.
    public init(path: StatePath, selector: Selector? = nil) {
      self.path = path
      self.selector = selector
    }

    /// As written: `cells.0`, `cells[task.id=2]`.
    public var description: String {
      path.description + (selector.map { "[\($0)]" } ?? "")
    }
  }

  /// Picks one reactor out of an array of references: the one whose own recorded state has
  /// ``value`` at ``key``.
  public struct Selector: Sendable, Hashable, CustomStringConvertible {
    /// The state path into each element's own state.
    public var key: StatePath
    /// The value it must have there.
    public var value: JSONValue

    /// A selector.
    public init(key: StatePath, value: JSONValue) {
      self.key = key
      self.value = value
    }

    /// As written: `task.id=2`; a string that would not read back as itself is quoted.
    public var description: String {
      let value =
        if case .string(let text) = value, (try? JSONValue(parsing: text)) == nil {
          text
        } else {
          value.serializedString
        }
      return "\(key)=\(value)"
    }
  }

  /// The name the app's session factory recorded the first reactor with, or its type
  /// (`TaskEditReactor`, or module-qualified) when no live reactor has the name.
  public var name: String
  /// Which of the live reactors with the name (or type) it is, in the order they were
  /// recorded: `0` the oldest, `-1` the latest; `nil` when there must be exactly one.
  public var index: Int?
  /// The steps down from it, in order; empty for the named reactor itself.
  public var steps: [Step]

  /// An address.
  public init(name: String, index: Int? = nil, steps: [Step] = []) {
    self.name = name
    self.index = index
    self.steps = steps
  }

  /// Reads an address written as ``ReactorAddress`` describes.
  /// - Parameter text: Such as `list/cells[task.id=2]`.
  /// - Throws: A ``ReactorAddressError`` saying what is wrong with it.
  public init(parsing text: String) throws(ReactorAddressError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    var name = parts[0].trimmingWhitespace
    var index: Int?
    if name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
      let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
      guard let position = Int(inside) else {
        throw ReactorAddressError(
          text: text,
          reason: "[\(inside)] after a name or type is a position among its live reactors, "
            + "such as [0] (the oldest) or [-1] (the latest)", isMalformed: true)
      }
      index = position
      name = String(name[..<open]).trimmingWhitespace
    }
    guard !name.isEmpty else {
      throw ReactorAddressError(
        text: text, reason: "it names no reactor before the first '/'", isMalformed: true)
    }
    var steps: [Step] = []
    for part in parts.dropFirst() {
      steps.append(try Self.step(part, in: text))
    }
    self.init(name: name, index: index, steps: steps)
  }

  /// As written: the name (with its position) and each step, separated by `/`.
  public var description: String {
    ([name + (index.map { "[\($0)]" } ?? "")] + steps.map(\.description)).joined(separator: "/")
  }

  /// One step down: a state path, with an optional `[key=value]` selector at its end.
  private static func step(_ part: String, in text: String) throws(ReactorAddressError) -> Step {
    var body = part.trimmingWhitespace
    var selector: Selector?
    if body.hasSuffix("]"), let open = body.lastIndex(of: "["),
      body[open...].contains("=")
    {
      let inside = body[body.index(after: open)..<body.index(before: body.endIndex)]
      let pair = inside.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key: StatePath
      do {
        key = try StatePath(parsing: String(pair[0]))
      } catch {
        throw ReactorAddressError(
          text: text, reason: "in the selector [\(inside)]: \(error)", isMalformed: true)
      }
      let written = String(pair[1]).trimmingWhitespace
      let value = (try? JSONValue(parsing: written)) ?? .string(written)
      selector = Selector(key: key, value: value)
      body = String(body[..<open])
    }
    guard !body.isEmpty else {
      throw ReactorAddressError(
        text: text, reason: "a step after '/' needs a path into the state, such as cells.0",
        isMalformed: true)
    }
    do {
      return Step(path: try StatePath(parsing: body), selector: selector)
    } catch {
      throw ReactorAddressError(text: text, reason: error.description, isMalformed: true)
    }
  }
}

extension String {
  /// The string without leading and trailing whitespace.
  fileprivate var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
