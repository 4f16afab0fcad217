public import ReactorJSON

/// A path to a field of a state's JSON: the one way every command names a field (`--key` of
/// `render transitions`, `render inspector`, `explore` and `generate-test`, the inspector's
/// path search, a generated test's `stateJSON(_:at:)`).
///
/// Written as components separated by dots: `isLoading`, `user.name`, `tasks.0.title`. An
/// index may also be written in brackets, as replay messages print it: `tasks[0].title` is
/// the same path. A component made of decimal digits (`0`, `12`, not `01`) is an array index
/// where the value is an array; everywhere else a component is an object member's key. A
/// key that holds a dot cannot be named. Surrounding whitespace is ignored.
///
/// ```swift
/// let path = try StatePath(parsing: "tasks.0.title")
/// let title = path.value(in: state)        // the first task's title, or nil
/// let fields = StatePath.leaves(of: state)  // every scalar with its path
/// ```
public struct StatePath: Hashable, Sendable, CustomStringConvertible {
  /// The components from the state's root: object keys, or array indices in decimal.
  public let components: [String]

  /// The path of the whole state.
  public static let root = StatePath(components: [])

  /// A path of these components.
  ///
  /// - Parameter components: Object keys, or array indices in decimal, from the root.
  public init(components: [String]) {
    self.components = components
  }

  /// Reads a path written as ``StatePath`` describes.
  ///
  /// - Parameter text: The path, such as `tasks.0.title` or `tasks[0].title`.
  /// - Throws: ``StatePathError`` when the text is empty or has an empty component
  ///   (`tasks..title`, `tasks.`).
  public init(parsing text: String) throws(StatePathError) {
    var body = Substring(text)
    while body.first?.isWhitespace == true { body.removeFirst() }
    while body.last?.isWhitespace == true { body.removeLast() }
    guard !body.isEmpty else { throw StatePathError(text: text, reason: "it is empty") }
    // `[12]` is `.12`: the same rewriting the inspector's page does.
    var dotted = ""
    var rest = body[...]
    while let open = rest.firstIndex(of: "[") {
      dotted += rest[..<open]
      let afterOpen = rest.index(after: open)
      if let close = rest[afterOpen...].firstIndex(of: "]"), close > afterOpen,
        rest[afterOpen..<close].allSatisfy({ $0.isASCII && $0.isNumber })
      {
        dotted += (dotted.isEmpty ? "" : ".") + rest[afterOpen..<close]
        rest = rest[rest.index(after: close)...]
      } else {
        dotted += "["
        rest = rest[afterOpen...]
      }
    }
    dotted += rest
    let components = dotted.split(separator: ".", omittingEmptySubsequences: false)
    guard !components.contains(where: \.isEmpty) else {
      throw StatePathError(text: text, reason: "it has an empty field name")
    }
    self.init(components: components.map(String.init))
  }

  /// The path as written: components joined by dots (`tasks.0.title`); empty for the root.
  public var description: String { components.joined(separator: ".") }

  /// The array index a component names, if it is one: decimal digits without a leading zero.
  static func index(_ component: String) -> Int? {
    guard let index = Int(component), index >= 0, String(index) == component else { return nil }
    return index
  }

  /// The element of `elements` a component indexes, if it is an index within them.
  static func element<Element>(_ component: String, of elements: [Element]) -> Element? {
    guard let index = index(component), elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The value at this path in `state`, `nil` when the state has none there.
  ///
  /// - Parameter state: A state's JSON.
  /// - Returns: The value; `state` itself for the root.
  public func value(in state: JSONValue) -> JSONValue? {
    components.reduce(Optional(state)) { value, component in
      switch value {
      case .object(let object)?: object[component]
      case .array(let elements)?: Self.element(component, of: elements)
      default: nil
      }
    }
  }

  /// The path one component further down.
  ///
  /// - Parameter component: An object key, or an array index in decimal.
  /// - Returns: The longer path.
  public func appending(_ component: String) -> StatePath {
    StatePath(components: components + [component])
  }

  /// Whether `other` is this path or lies under it: `tasks` contains `tasks.0.title`.
  ///
  /// - Parameter other: Another path.
  /// - Returns: Whether this path is a prefix of `other`.
  public func contains(_ other: StatePath) -> Bool {
    other.components.count >= components.count
      && zip(components, other.components).allSatisfy { $0 == $1 }
  }

  /// Whether a diff operation at `operationPath` can change the value at this path: when one
  /// path is a prefix of the other, component by component.
  ///
  /// - Parameter operationPath: Where a ``TraceDiffOperation`` applies.
  /// - Returns: `false` only when the operation certainly leaves this path's value alone.
  public func overlaps(_ operationPath: [JSONPathComponent]) -> Bool {
    for (operation, component) in zip(operationPath, components) {
      switch operation {
      case .key(let key): guard key == component else { return false }
      case .index(let index): guard Self.index(component) == index else { return false }
      }
    }
    return true
  }

  /// The leaves of a state with their paths: object members by key, array elements by index
  /// (`tasks.1.isDone`), empty containers and scalars whole, in the state's order.
  ///
  /// - Parameter state: A state's JSON.
  /// - Returns: Every leaf; a scalar state is one leaf at the root.
  public static func leaves(of state: JSONValue) -> [(path: StatePath, value: JSONValue)] {
    var leaves: [(path: StatePath, value: JSONValue)] = []
    collectLeaves(of: state, at: [], into: &leaves)
    return leaves
  }

  private static func collectLeaves(
    of value: JSONValue, at path: [String], into leaves: inout [(path: StatePath, value: JSONValue)]
  ) {
    switch value {
    case .object(let object) where !object.isEmpty:
      for (key, member) in object.members {
        collectLeaves(of: member, at: path + [key], into: &leaves)
      }
    case .array(let elements) where !elements.isEmpty:
      for (index, element) in elements.enumerated() {
        collectLeaves(of: element, at: path + [String(index)], into: &leaves)
      }
    default:
      leaves.append((StatePath(components: path), value))
    }
  }
}

extension StatePath: ExpressibleByStringLiteral {
  /// A path written in the source, such as `"tasks.0.title"`; it must be well formed.
  ///
  /// - Parameter value: The path, as ``init(parsing:)`` reads it.
  public init(stringLiteral value: String) {
    do {
      try self.init(parsing: value)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}
