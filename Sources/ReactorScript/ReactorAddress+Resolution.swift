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
      named: recorder.reactors(named:), names: { recorder.reactorNames },
      state: recorder.recordedState(of:))
  }

  /// The reactor this address reaches among reactors known by their names and recorded
  /// states, as ``reactor(in:)`` resolves it against a running session: `shrink` resolves
  /// addresses in a recorded session, event by event, through here.
  /// - Parameters:
  ///   - named: The live reactors with a name.
  ///   - names: Every name a live reactor has, for messages.
  ///   - state: A live reactor's recorded state as JSON; `nil` for none.
  /// - Returns: The reactor's id in the session.
  /// - Throws: ``ReactorAddressError`` naming the name or step that reaches nothing.
  public func reactor(
    named: (String) -> [Int], names: () -> [String], state: (Int) -> JSONValue?
  ) throws(ReactorAddressError) -> Int {
    let named = named(name)
    guard named.count == 1, var reactor = named.first else {
      let names = names()
      throw failure(
        named.isEmpty
          ? "no live reactor is named '\(name)'; named: "
            + (names.isEmpty ? "none" : names.joined(separator: ", "))
          : "\(named.count) live reactors are named '\(name)' (ids "
            + named.map(String.init).joined(separator: ", ") + ")")
    }
    var reached = name
    for step in steps {
      guard let recorded = state(reactor) else {
        throw failure("the state of '\(reached)' is not recorded as JSON, so no path leads into it")
      }
      guard let value = step.path.value(in: recorded) else {
        throw failure("the state of '\(reached)' has nothing at \(step.path)")
      }
      if let selector = step.selector {
        reactor = try select(selector, among: value, at: step, of: reached, state: state)
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
  private func select(
    _ selector: Selector, among value: JSONValue, at step: Step,
    of reached: String, state: (Int) -> JSONValue?
  ) throws(ReactorAddressError) -> Int {
    guard case .array(let elements) = value else {
      throw failure(
        "\(step.path) in the state of '\(reached)' is \(Self.shortly(value)), not an array "
          + "of reactors to select from")
    }
    let matches = elements.compactMap(Self.reference).filter { child in
      state(child).flatMap(selector.key.value(in:)) == selector.value
    }
    guard matches.count == 1, let match = matches.first else {
      throw failure(
        matches.isEmpty
          ? "none of the \(elements.count) reactors at \(step.path) in the state of "
            + "'\(reached)' has \(selector.key) = \(selector.value.serializedString)"
          : "\(matches.count) reactors at \(step.path) in the state of '\(reached)' have "
            + "\(selector.key) = \(selector.value.serializedString)")
    }
    return match
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
