import ReactorTracing

extension TestGenerator {
  /// The source of a test file with one test per session of one app (see
  /// ``TestSubject/app(_:)``): ``source(of:factory:)`` with the session factory for its `app`
  /// metadata, `nil` when none is known.
  public func source(
    forSessions paths: [String],
    factory: (_ app: String?, _ metadata: [String: String]) -> SessionFactory?
  ) throws(TestGenerationError) -> String {
    try source(of: paths) { subject, metadata in
      guard case .app(let app) = subject else { return nil }
      return factory(app, metadata).map(TestFactory.app)
    }
  }

  /// One test function's lines, unindented.
  func test(
    named name: String, plan: TestPlan, factory: TestFactory
  ) throws(TestGenerationError) -> [String] {
    let file = fileName(plan.path)
    var body = ["let clock = TestClock()"]
    let summary: String
    let deliver: String?
    switch factory {
    case .reactor(let factory):
      summary = "The run recorded in \(file)\(plan.metadata["script"].map { ": " + $0 } ?? "")."
      deliver = factory.deliver
      body += factory.setup
      body += [
        "_ = reactor.state  // its pipeline starts now, as when a view binds it",
        "@MainActor func field(_ path: String) -> String? {",
        "  stateJSON(reactor.currentState, at: path)",
        "}",
      ]
    case .app(let factory):
      let count = plan.reactors.count
      summary =
        "The session recorded in \(file): \(count) reactor\(count == 1 ? "" : "s"), "
        + "\(plan.userActions) user action\(plan.userActions == 1 ? "" : "s")."
      deliver = factory.deliver
      if let including = factory.including {
        body += [
          "let recorder = try SessionRecorder.recordingEveryReactor(",
          "  options: TraceOptions(clock: clock),",
          "  including: \(including))",
        ]
      } else {
        body.append(
          "let recorder = try SessionRecorder.recordingEveryReactor(options: TraceOptions(clock: clock))"
        )
      }
      body.append("defer { recorder.stop() }")
      body += factory.setup
      body += [
        "@MainActor func field(_ reactor: Int, _ path: String) -> String? {",
        "  stateJSON(of: reactor, in: recorder, at: path)",
        "}",
      ]
    }
    var lines = testOpening(named: name, summary: summary.replacingNewlines)
    let finalOnly = options.expectations == .finalState
    // The recorded user actions the factory sends itself at start-up: not sent again.
    var startUp: ArraySlice<SessionFactory.StartUpAction> = []
    if case .app(let factory) = factory { startUp = factory.startUpActions[...] }
    for step in plan.steps {
      switch step {
      case .advance(let duration, let time):
        guard duration > .zero else {
          body.append("await clock.advance()")
          continue
        }
        body += ["", "// \(TestPlan.text(time))", "await clock.advance(by: \(swift(duration)))"]
      case .send(let value, let reactor, let label, let id, let time):
        if startUp.first == SessionFactory.StartUpAction(reactor: reactor, value: value) {
          startUp = startUp.dropFirst()
          var comment =
            "// \(plan.reactors[reactor]?.label ?? "#\(reactor)")'s action \(id), sent at "
            + "\(TestPlan.text(time)) by the app at start-up, not again: \(label)"
          comment = comment.replacingNewlines
          if 6 + comment.count > Self.lineLength {
            comment = String(comment.prefix(Self.lineLength - 6 - 1)) + "…"
          }
          body.append(comment)
          continue
        }
        startUp = []
        body += send(value, label: label, id: id, time: time, to: reactor, plan: plan, factory)
      case .deliver(let value, let time):
        guard let deliver else {
          throw .unusableEvents(
            path: plan.path,
            reason: factory.isApp
              ? "the session hands events to the app's fakes, but its session factory "
                + "takes none: give its test spelling a deliver expression"
              : "the trace hands events to the fakes, but the factory takes none: "
                + "pass --deliver, e.g. --deliver service.apply")
        }
        body.append(
          "// scripted event at \(TestPlan.text(time)): \(value.serializedString)"
            .replacingNewlines)
        body.append("\(deliver)(try decoded(\(SwiftLiteral.string(value.serializedString))))")
      case .jump(let jump, let time):
        startUp = []
        body += self.jump(jump, time: time, plan: plan, factory)
      case .expect(let checks, let context):
        if !finalOnly { body += assertions(checks, context: context, plan: plan, factory) }
      }
    }
    if finalOnly {
      // Every field of every reactor alive at the end; every other reactor gone.
      var checks: [TestPlan.Check] = []
      for reactor in plan.reactors.keys.sorted() {
        guard let state = plan.finalStates[reactor] else {
          checks.append(TestPlan.Check(reactor: reactor, path: nil, json: nil))
          continue
        }
        checks += TestPlan.changes(from: nil, to: state).map {
          TestPlan.Check(reactor: reactor, path: $0.path, json: $0.json)
        }
      }
      body += assertions(checks, context: plan.finalContext, plan: plan, factory)
    }
    if factory.isApp { body.append("withExtendedLifetime(app) {}") }
    lines += body.map { $0.isEmpty ? "" : "    " + $0 }
    lines += ["  }", "}"]
    return lines
  }

  /// The checks' lines, limited to the options' keys: of `reactor`'s fields for a reactor's
  /// factory, of the fields of reactors addressed by id, their labels in the messages, for
  /// an app's.
  private func assertions(
    _ checks: [TestPlan.Check], context: String, plan: TestPlan, _ factory: TestFactory
  ) -> [String] {
    var lines: [String] = []
    for check in checks {
      let label = plan.reactors[check.reactor]?.label ?? "#\(check.reactor)"
      guard let path = check.path else {
        lines += assertion(
          actual: factory.isApp ? "field(\(check.reactor), \"\")" : "field(\"\")",
          expected: nil, message: factory.isApp ? "\(label) released, \(context)" : context)
        continue
      }
      if case .keys(let wanted) = options.expectations,
        !wanted.contains(where: { $0.contains(path) })
      {
        continue
      }
      let field = SwiftLiteral.string(path.description)
      lines += assertion(
        actual: factory.isApp ? "field(\(check.reactor), \(field))" : "field(\(field))",
        expected: check.json, message: factory.isApp ? "\(label), \(context)" : context)
    }
    return lines
  }

  /// The lines sending a user action, after a comment naming it: to `reactor` for a
  /// reactor's factory, typed when the value is an enum case the schema spells, else decoded
  /// from its JSON; for an app's, through the recorder to the reactor with the recorded id,
  /// typed (`TaskEditReactor.Action.save`) or decoded as the reactor's action.
  private func send(
    _ value: JSONValue, label: String, id: Int, time: Duration, to reactor: Int,
    plan: TestPlan, _ factory: TestFactory
  ) -> [String] {
    let target = plan.reactors[reactor]
    let json = SwiftLiteral.string(value.serializedString)
    guard factory.isApp else {
      let action =
        SwiftLiteral.enumCase(value, schema: target?.actionSchema) ?? "try decoded(\(json))"
      return [
        "// action \(id), sent at \(TestPlan.text(time)): \(label)".replacingNewlines,
        "reactor.send(\(action))",
      ]
    }
    var comment =
      ("// \(target?.label ?? "#\(reactor)")'s action \(id), sent at \(TestPlan.text(time)): "
      + label).replacingNewlines
    // Within the line length, the body being indented by 6.
    if 6 + comment.count > Self.lineLength {
      comment = String(comment.prefix(Self.lineLength - 6 - 1)) + "…"
    }
    guard let type = target?.sourceType else {
      return [comment, "try recorder.send(try JSONValue(parsing: \(json)), to: \(reactor))"]
    }
    if let action = SwiftLiteral.enumCase(value, schema: target?.actionSchema) {
      let line = "try recorder.send(\(type).Action\(action), to: \(reactor))"
      if 6 + line.count <= Self.lineLength { return [comment, line] }
    }
    let line = "try recorder.send(decoded(\(json), as: \(type).Action.self), to: \(reactor))"
    if 6 + line.count <= Self.lineLength { return [comment, line] }
    return [
      comment,
      "try recorder.send(",
      "  decoded(",
      "    \(json),",
      "    as: \(type).Action.self),",
      "  to: \(reactor))",
    ]
  }
}

extension TestGenerator {
  /// The lines of a jump, after a comment naming it, performed as the runtime performs it:
  /// the recorded state decoded as the reactor's `State` and made its state with
  /// `Reactor.jump(to:event:from:)`; for an app's, through the recorder
  /// (`SessionRecorder.jump(reactor:to:event:from:)`) to the reactor with the recorded id.
  fileprivate func jump(
    _ jump: TestPlan.Jump, time: Duration, plan: TestPlan, _ factory: TestFactory
  ) -> [String] {
    let label = plan.reactors[jump.reactor]?.label ?? "#\(jump.reactor)"
    let whose = factory.isApp ? "\(label)'s " : ""
    var comment =
      "// \(whose)jump to the state after event \(jump.target), sent from \(jump.external) at "
      + TestPlan.text(time)
    comment = comment.replacingNewlines
    if 6 + comment.count > Self.lineLength {
      comment = String(comment.prefix(Self.lineLength - 6 - 1)) + "…"
    }
    let json = jump.state.serializedString
    let rest = "event: \(jump.target), from: \(SwiftLiteral.string(jump.external)))"
    let call = factory.isApp ? "try recorder.jump(reactor: \(jump.reactor), " : "reactor.jump("
    let state = factory.isApp ? "JSONValue(parsing: " : "try decoded("
    let oneLine = call + "to: " + state + SwiftLiteral.string(json) + "), " + rest
    // The body's lines are indented by 6 in the file; 2 columns are left spare.
    if 6 + oneLine.count <= Self.lineLength - 2 { return [comment, oneLine] }
    // An argument a line, the state's literal on lines of its own, cut into pieces joined by
    // `+` when it is long, as `swift format` lays them out.
    var lines = [comment]
    lines +=
      factory.isApp
      ? ["try recorder.jump(", "  reactor: \(jump.reactor),", "  to: JSONValue("]
      : ["reactor.jump(", "  to: try decoded("]
    let lead = factory.isApp ? "    parsing: " : "    "
    let width = Self.lineLength - 6 - 2 - max(lead.count, 8) - 2
    let pieces = SwiftLiteral.pieces(json, width: width)
    lines.append(lead + pieces[0])
    lines += pieces.dropFirst().map { "      + " + $0 }
    lines[lines.count - 1] += "),"
    lines.append("  " + rest)
    return lines
  }
}

extension TestFactory {
  /// Whether it builds an app.
  var isApp: Bool { if case .app = self { true } else { false } }
}
