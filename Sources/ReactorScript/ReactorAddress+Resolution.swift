public import ReactorTracing

extension ReactorAddress {
  /// The live reactor this address reaches in the session `recorder` records now.
  ///
  /// The name must belong to exactly one live reactor; each step is followed in the state
  /// the session recorded last for the reactor reached so far, and must reach a reference to
  /// a live reactor (with a selector, exactly one of the array's references whose reactor's
  /// state matches).
  /// - Parameter recorder: The session recorder of the running app.
  /// - Returns: The reactor's id in the session.
  /// - Throws: ``ReactorAddressError`` naming the name or step that reaches nothing.
  @MainActor
  public func reactor(in recorder: SessionRecorder) throws(ReactorAddressError) -> Int {
    try reactor(
      named: recorder.reactors(named:), ofType: recorder.reactors(ofType:),
      names: { recorder.reactorNames }, state: recorder.recordedState(of:),
      children: recorder.children(of:))
  }

  /// The reactor this address reaches among reactors known by their names, types and
  /// recorded states, as ``reactor(in:)`` resolves it against a running session: `shrink`
  /// resolves addresses in a recorded session, event by event, through here.
  /// - Parameters:
  ///   - named: The live reactors with a name, oldest first.
  ///   - ofType: The live reactors of a type (its short or qualified name), oldest first.
  ///   - names: Every name a live reactor has, for messages.
  ///   - state: A live reactor's recorded state as JSON; `nil` for none.
  ///   - children: The live reactors a reactor created, oldest first: what a selector picks
  ///     among when the reactor's state holds its children inline.
  /// - Returns: The reactor's id in the session.
  /// - Throws: ``ReactorAddressError`` naming the name or step that reaches nothing.
  public func reactor(
    named: (String) -> [Int], ofType: (String) -> [Int] = { _ in [] },
    names: () -> [String], state: (Int) -> JSONValue?,
    children: (Int) -> [Int] = { _ in [] }
  ) throws(ReactorAddressError) -> Int {
    var found = named(name)
    var kind = "named"
    if found.isEmpty {
      found = ofType(name)
      kind = "of type"
    }
    var reactor: Int
    if let index {
      let position = index < 0 ? found.count + index : index
      guard found.indices.contains(position) else {
        throw failure(
          found.isEmpty
            ? noneNamed(names())
            : "there \(found.count == 1 ? "is 1 live reactor" : "are \(found.count) live reactors") "
              + "\(kind) '\(name)', so none at position \(index)")
      }
      reactor = found[position]
    } else {
      guard found.count == 1, let only = found.first else {
        throw failure(
          found.isEmpty
            ? noneNamed(names())
            : "\(found.count) live reactors are \(kind) '\(name)' (ids "
              + found.map(String.init).joined(separator: ", ")
              + "); pick one by position: '\(name)[-1]' is the latest")
      }
      reactor = only
    }
    var reached = name + (index.map { "[\($0)]" } ?? "")
    for step in steps {
      guard let recorded = state(reactor) else {
        throw failure("the state of '\(reached)' is not recorded as JSON, so no path leads into it")
      }
      guard let value = step.path.value(in: recorded) else {
        throw failure("the state of '\(reached)' has nothing at \(step.path)")
      }
      if let selector = step.selector {
        reactor = try select(
          selector, among: value, heldBy: reactor, at: step, of: reached, state: state,
          children: children)
      } else {
        guard let child = Self.reference(value), state(child) != nil else {
          throw failure(
            "\(step.path) in the state of '\(reached)' is \(Self.shortly(value)), "
              + "not a reference to a live reactor ({\"reactor\": id})")
        }
        reactor = child
      }
      reached += "/\(step)"
    }
    return reactor
  }

  /// The one reactor among the references `value` holds whose recorded state has the
  /// selector's value at its key.
  ///
  /// When the holder's state encodes its reactors inline (their content, not references), the
  /// selector picks among the live reactors `holder` created, each through its own lane's
  /// state, which stays current where the holder's copy goes stale.
  private func select(
    _ selector: Selector, among value: JSONValue, heldBy holder: Int, at step: Step,
    of reached: String, state: (Int) -> JSONValue?, children: (Int) -> [Int]
  ) throws(ReactorAddressError) -> Int {
    guard case .array(let elements) = value else {
      throw failure(
        "\(step.path) in the state of '\(reached)' is \(Self.shortly(value)), not an array "
          + "of reactors to select from")
    }
    let referenced = elements.compactMap(Self.reference)
    // A state that holds its children inline (not as references): select among the reactors
    // its holder created, by their own states.
    let inline = referenced.isEmpty && !elements.isEmpty
    let references = inline ? children(holder) : referenced
    let matches = references.filter { child in
      state(child).flatMap(selector.key.value(in:)) == selector.value
    }
    guard matches.count == 1, let match = matches.first else {
      let wanted = "\(selector.key) = \(selector.value.serializedString)"
      guard matches.isEmpty else {
        throw failure(
          "\(matches.count) reactors at \(step.path) in the state of '\(reached)' have \(wanted)")
      }
      let place = "at \(step.path) in the state of '\(reached)'"
      guard let other = elements.first(where: { Self.reference($0) == nil }) else {
        throw failure(
          "none of the \(Self.counted(references.count, "reactor")) \(place) has \(wanted)")
      }
      if inline, !references.isEmpty {
        throw failure(
          "none of the \(Self.counted(references.count, "reactor")) '\(reached)' created has "
            + "\(wanted) (the \(Self.counted(elements.count, "element")) \(place) are values, "
            + "not references to reactors)")
      }
      // Elements that are not references: say what they are, so that the address is seen to
      // select among values, not reactors.
      let others = elements.count - referenced.count
      throw failure(
        referenced.isEmpty
          ? "the \(Self.counted(elements.count, "element")) \(place) are not references to "
            + "reactors ({\"reactor\": id}) but values such as \(Self.shortly(other)): a "
            + "selector picks among the reactors an array refers to"
          : "none of the \(Self.counted(referenced.count, "reactor")) \(place) has \(wanted) "
            + "(the other \(others) of the \(elements.count) elements "
            + (others == 1 ? "is not a reference" : "are not references")
            + " to a reactor, such as \(Self.shortly(other)))")
    }
    return match
  }

  /// `1 reactor`, `3 reactors`.
  private static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)" + (count == 1 ? "" : "s")
  }

  /// Why no live reactor has the name or type: the names there are.
  private func noneNamed(_ names: [String]) -> String {
    return "no live reactor is named '\(name)'; named: "
      + (names.isEmpty ? "none" : names.joined(separator: ", "))
  }

  private func failure(_ reason: String) -> ReactorAddressError {
    ReactorAddressError(text: description, reason: reason)
  }

  /// The id of a reference, `{"reactor": 3}`.
  private static func reference(_ value: JSONValue) -> Int? {
    guard case .object(let object) = value, object.count == 1,
      case .int(let id)? = object["reactor"]
    else { return nil }
    return Int(exactly: id)
  }

  /// A value in a few characters, for messages.
  private static func shortly(_ value: JSONValue) -> String {
    let text = value.serializedString
    return text.count > 60 ? String(text.prefix(60)) + "…" : text
  }
}
