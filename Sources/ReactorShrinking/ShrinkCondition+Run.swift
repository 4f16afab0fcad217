import ReactorExploration
public import ReactorScript
public import ReactorTracing

extension ShrinkCondition {
  /// What a run of `script` that recorded `session` without trapping gave: met at the first
  /// moment the state and invariant parts hold (never, with a trap part: the run did not
  /// trap), with the steps due by then counted as run.
  /// - Parameters:
  ///   - script: The script that ran.
  ///   - session: What it recorded (a trace read as a session of one reactor).
  ///   - brokenInvariant: As for ``firstMatch(in:brokenInvariant:)``.
  /// - Returns: The run's outcome.
  public func outcome(
    of script: ReactorScript, recorded session: SessionTrace,
    brokenInvariant: (_ type: String, _ state: JSONValue) -> String? = { _, _ in nil }
  ) -> ShrinkRun {
    let steps = script.orderedSteps
    guard !trap, let match = firstMatch(in: session, brokenInvariant: brokenInvariant) else {
      return ShrinkRun(isMet: false, stepsRun: steps.count)
    }
    // Steps due at the moment's time may have run before it: they are kept.
    let run = steps.count { $0.time <= match.time }
    return ShrinkRun(
      isMet: true, stepsRun: run, detail: match.invariant.map { "invariant '\($0)' broken" })
  }

  /// This condition with its invariant part spelled as the state that broke it.
  ///
  /// The state is the one in `session` at the first moment the condition holds: every field of that reactor's
  /// state, after its address in an app. What a test can check without the invariant's code.
  /// - Returns: `nil` when the condition has no invariant part or never holds in `session`.
  public func spellingInvariantAsState(
    in session: SessionTrace,
    brokenInvariant check: (_ type: String, _ state: JSONValue) -> String?
  ) -> ShrinkCondition? {
    guard brokenInvariant,
      let (_, world, breaker) = firstMoment(in: session, brokenInvariant: check),
      let breaker, let state = world.states[breaker]
    else { return nil }
    // An app's run addresses its reactors; so does any run whose breaker is not the reactor
    // a condition without an address reads (found by the shrink fuzz, issue 40: a session
    // without `app` metadata spelled the edit screen's fields as the list's).
    let needsAddress = session.header.metadata["app"] != nil || breaker != world.first
    let address = needsAddress ? world.address(of: breaker) : nil
    // A field whose key a condition cannot write (one holding `=`, `,`, `:` or a dot) would
    // be read back as another field: it is left out, so the condition still holds then.
    let fields = StatePath.leaves(of: StatePulse.withoutCounts(state)).compactMap {
      leaf -> String? in
      let field = "\(leaf.path)=\(leaf.value.serializedString)"
      guard
        let term = try? StateTerm(parsing: (address.map { "\($0):" } ?? "") + field),
        term.address == address, term.condition.terms.count == 1,
        term.condition.terms[0].key == leaf.path, term.condition.terms[0].value == leaf.value
      else { return nil }
      return field
    }
    guard !fields.isEmpty,
      let condition = try? StateCondition(parsing: fields.joined(separator: ","))
    else { return nil }
    if needsAddress, address == nil { return nil }
    return ShrinkCondition(
      states: states + [StateTerm(address: address, condition: condition)],
      brokenInvariant: false, trap: trap)
  }
}
