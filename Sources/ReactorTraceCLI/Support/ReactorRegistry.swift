import ArgumentParser
import Clocks
import ConcurrencyExtras
import Foundation
public import ReactorCore
import ReactorExploration
import ReactorReplay
import ReactorScript
public import ReactorTestGeneration
import ReactorTracing

/// The reactors a `reactor-trace` binary can replay traces against, by type name.
///
/// The shipped binary registers the example reactors. To replay your own, build your own
/// `reactor-trace` in a few lines:
///
/// ```swift
/// import MyApp
/// import ReactorTraceCLI
///
/// var registry = ReactorRegistry()
/// registry.register(
///   ProfileReactor.self,
///   test: { _ in ReactorFactory(expression: "ProfileReactor(api: FakeUserAPI(), clock: clock)") }
/// ) { context in
///   ProfileReactor(api: FakeUserAPI(), clock: context.clock)
/// }
/// await ReactorTraceCommand.runFromCommandLine(registry: registry)
/// ```
public struct ReactorRegistry: Sendable {
  /// The registry the running command uses.
  @TaskLocal public static var current = ReactorRegistry()

  private var entries: [String: Entry] = [:]
  private var sessionEntries: [String: SessionEntry] = [:]

  /// An empty registry.
  public init() {}

  /// The registered type names, sorted: `ReactorExamples.CounterReactor`.
  public var names: [String] { entries.keys.sorted() }

  /// The apps with a registered session factory, sorted: `TaskApp`.
  public var sessionApps: [String] { sessionEntries.keys.sorted() }

  /// Registers a session factory: how to build a whole app, wired as the app wires it, for
  /// `record` of the app's scripts, `replay --mode mutate` and `rerecord` of its sessions,
  /// and (spelled as Swift source in `test`) for the tests `generate-test` writes from them.
  ///
  /// A session is matched to its factory by its header's `app` metadata, an app's script by
  /// its first line, `{"app": "TaskApp"}`. The names the factory records reactors with are
  /// the names the app's scripts address them by (`ReactorAddress`).
  ///
  /// ```swift
  /// registry.registerSession(
  ///   app: "TaskApp",
  ///   test: { _ in
  ///     SessionFactory(
  ///       setup: [
  ///         "let app = TaskApp(clock: clock)", #"recorder.record(app.list, name: "list")"#,
  ///         #"recorder.record(app.edit, name: "edit")"#, "app.bindViews()",
  ///       ], imports: ["MyApp"])
  ///   }
  /// ) { context in
  ///   let app = TaskApp(clock: context.clock)
  ///   context.recorder.record(app.list, name: "list")
  ///   context.recorder.record(app.edit, name: "edit")
  ///   app.bindViews()
  ///   return app
  /// }
  /// ```
  /// - Parameters:
  ///   - app: The app's name, as its sessions' `app` metadata holds it.
  ///   - including: Which reactors the replay records: the app's (all by default; a process
  ///     running other reactors at the same time, such as a test runner, names the app's
  ///     types).
  ///   - test: The same factory as `make`, spelled as Swift source for a generated test,
  ///     given a session's metadata (its `including` spelled too when `including` is given).
  ///   - make: Builds the app on the context's clock, names its reactors to the context's
  ///     recorder, and returns what must stay alive for the run.
  public mutating func registerSession(
    app: String, including: @escaping @MainActor @Sendable (AnyObject) -> Bool = { _ in true },
    test: (@Sendable (ReactorContext.Metadata) -> SessionFactory)? = nil,
    make: @escaping @MainActor @Sendable (SessionContext) -> AnyObject
  ) {
    var testFactory: (@Sendable ([String: String]) -> SessionFactory)?
    if let test {
      testFactory = { metadata in test(ReactorContext.Metadata(metadata)) }
    }
    sessionEntries[app] = SessionEntry(
      testFactory: testFactory,
      startUpActions: { metadata in
        // The factory alone, on a test clock: the actions it sends while it builds the app.
        let wasSerial = uncheckedUseMainSerialExecutor
        uncheckedUseMainSerialExecutor = true
        defer { uncheckedUseMainSerialExecutor = wasSerial }
        let clock = TestClock()
        guard
          let recorder = try? SessionRecorder.recordingEveryReactor(
            options: TraceOptions(metadata: metadata, clock: clock), including: including)
        else { return [] }
        defer { recorder.stop() }
        let app = make(SessionContext(clock: clock, metadata: metadata, recorder: recorder))
        defer { withExtendedLifetime(app) {} }
        return recorder.session.events.compactMap { event in
          guard case .reactor(let reactor, .action(let action)) = event.kind, action.from == nil,
            action.source == .sent
          else { return nil }
          return SessionFactory.StartUpAction(reactor: reactor, value: action.value)
        }
      },
      mutate: { session, effects, settle throws(ReplayError) in
        // Effects and the test clock run deterministically on the main actor, in order: for
        // `replay --mode mutate` and `rerecord` alike, whatever else loads the machine.
        let wasSerial = uncheckedUseMainSerialExecutor
        uncheckedUseMainSerialExecutor = true
        defer { uncheckedUseMainSerialExecutor = wasSerial }
        let clock = TestClock()
        return try await SessionMutateReplay.run(
          session, clock: clock, advance: { await clock.advance(by: $0) }, settle: settle,
          including: including, effects: effects
        ) { recorder in
          make(SessionContext(clock: clock, metadata: session.header.metadata, recorder: recorder))
        }
      },
      record: { script, metadata, settle, willRun throws(ScriptError) in
        let clock = TestClock()
        defer { ReactorTrap.clear() }
        var used: SessionRecorder?
        let session = try await SessionScriptRunner.record(
          script, clock: clock, metadata: metadata, including: including, settle: settle,
          willRun: { stage in
            ReactorTrap.running(stage)
            willRun?(stage)
          }
        ) { recorder in
          used = recorder
          return make(SessionContext(clock: clock, metadata: metadata, recorder: recorder))
        }
        return (session, used?.warnings ?? [])
      })
  }

  /// The session factory of an app by name.
  /// - Throws: ``CommandFailure/unusableInput(_:)`` naming the registered apps when none
  ///   matches.
  func sessionEntry(app: String) throws(CommandFailure) -> SessionEntry {
    guard let entry = sessionEntries[app] else {
      let registered = sessionApps.isEmpty ? "none" : sessionApps.joined(separator: ", ")
      throw .unusableInput(
        "no session factory is registered for app '\(app)'; registered: \(registered)")
    }
    return entry
  }

  /// The session factory for a session, by its `app` metadata.
  /// - Throws: ``CommandFailure/unusableInput(_:)`` naming the registered apps when none
  ///   matches.
  func sessionEntry(for header: SessionHeader) throws(CommandFailure) -> (String, SessionEntry) {
    let registered = sessionApps.isEmpty ? "none" : sessionApps.joined(separator: ", ")
    guard let app = header.metadata["app"] else {
      throw .unusableInput(
        "the session's metadata names no 'app', so no session factory replays it; "
          + "registered session factories: \(registered)")
    }
    return (app, try sessionEntry(app: app))
  }

  /// The test spelling of the session factory registered for `app`, for a session's
  /// `metadata`; `nil` for an app registered without one, or not registered.
  func sessionTestFactory(for app: String?, metadata: [String: String]) -> SessionFactory? {
    app.flatMap { sessionEntries[$0]?.testFactory?(metadata) }
  }

  /// The user actions the session factory registered for `app` sends while it builds the
  /// app, found by running it for a session's `metadata`; none for an app not registered.
  @MainActor
  func sessionStartUpActions(
    for app: String, metadata: [String: String]
  ) -> [SessionFactory.StartUpAction] {
    sessionEntries[app]?.startUpActions(metadata) ?? []
  }

  /// How to record an app's scripts and replay its sessions through mutate.
  struct SessionEntry: Sendable {
    /// How a generated test builds the app, given a session's metadata.
    let testFactory: (@Sendable ([String: String]) -> SessionFactory)?
    /// The user actions the factory sends while it builds the app, for a session's metadata.
    let startUpActions: @MainActor @Sendable ([String: String]) -> [SessionFactory.StartUpAction]
    /// Replays a session through the app the factory builds, its effects run or played back
    /// from the recording, waiting at most the given virtual time after the last event for
    /// effects to end.
    let mutate:
      @MainActor @Sendable (SessionTrace, ReplayEffects, Duration) async throws(ReplayError) ->
        SessionMutateReplay.Result
    /// Records the app driven by an app's script, with the given header metadata, waiting
    /// at most the given virtual time after the last step for effects to end, telling the
    /// hook (after the trap report) what runs next; returns the session and what its
    /// recorder noticed (``SessionRecorder/warnings``).
    let record:
      @MainActor @Sendable (
        ReactorScript, [String: String], Duration, (@MainActor (ScriptStage) -> Void)?
      ) async throws(ScriptError) -> (session: SessionTrace, warnings: [SessionRecordingWarning])
  }

  /// Registers a reactor type under its module-qualified name, as traces record it.
  ///
  /// - Parameters:
  ///   - type: The reactor type. Reduce replay needs its Mutation and State to be Codable,
  ///     mutate replay and `record` its Action too.
  ///   - view: Binds a view to a reactor that `record` drives and returns how to read the
  ///     view's text; `record` prints it at the end, showing what the screen shows.
  ///   - invariants: Named properties every state must have, which `explore` checks in
  ///     every state it reaches: `["value within limit": { $0.value <= 10 }]`.
  ///   - test: How a test that `generate-test` writes builds the reactor, given a trace's
  ///     metadata: the same reactor as `make`, spelled as Swift source.
  ///   - make: Builds a fresh reactor with fakes for its dependencies, on the given clock.
  ///     The trace's metadata says how the recorded one was configured.
  public mutating func register<R: Reactor>(
    _ type: R.Type, view: (@MainActor @Sendable (R) -> @MainActor () -> String)? = nil,
    invariants: KeyValuePairs<String, @Sendable (R.State) -> Bool> = [:],
    test: (@Sendable (ReactorContext.Metadata) -> ReactorFactory)? = nil,
    make: @escaping @MainActor @Sendable (ReactorContext) -> R
  ) {
    add(type, events: ScriptRunner.NoEvent.self, view: view, invariants: invariants, test: test) {
      context in
      (make(context), nil)
    }
  }

  /// Registers a reactor type whose fakes also take scripted events: changes made outside
  /// the recorded reactor, such as another screen editing a shared store.
  ///
  /// A script's `{"t": 900, "event": …}` steps are decoded as `Event` and handed to the
  /// function `make` returns, at their times. The trace keeps them in its metadata
  /// (`script.events`), so mutate replay hands them over again at the same times.
  ///
  /// ```swift
  /// registry.register(TaskListReactor.self, events: TaskEdit.self) { context in
  ///   let service = TaskService(clock: context.clock)
  ///   return (TaskListReactor(service: service), service.apply)
  /// }
  /// ```
  /// - Parameters:
  ///   - type: The reactor type.
  ///   - events: The Codable type of the scripted events.
  ///   - view: Binds a view to a reactor that `record` drives and returns how to read the
  ///     view's text.
  ///   - invariants: Named properties every state must have, checked by `explore`.
  ///   - test: How a test that `generate-test` writes builds the reactor and hands it
  ///     events, given a trace's metadata.
  ///   - make: Builds a fresh reactor and the function that hands an event to its fakes.
  public mutating func register<R: Reactor, Event: Decodable>(
    _ type: R.Type, events: Event.Type,
    view: (@MainActor @Sendable (R) -> @MainActor () -> String)? = nil,
    invariants: KeyValuePairs<String, @Sendable (R.State) -> Bool> = [:],
    test: (@Sendable (ReactorContext.Metadata) -> ReactorFactory)? = nil,
    make: @escaping @MainActor @Sendable (ReactorContext) -> (R, @MainActor (Event) -> Void)
  ) {
    add(type, events: events, view: view, invariants: invariants, test: test) { context in
      let (reactor, deliver) = make(context)
      return (reactor, deliver)
    }
  }

  private mutating func add<R: Reactor, Event: Decodable>(
    _ type: R.Type, events: Event.Type,
    view: (@MainActor @Sendable (R) -> @MainActor () -> String)?,
    invariants: KeyValuePairs<String, @Sendable (R.State) -> Bool>,
    test: (@Sendable (ReactorContext.Metadata) -> ReactorFactory)?,
    make: @escaping @MainActor @Sendable (ReactorContext) -> (R, (@MainActor (Event) -> Void)?)
  ) {
    let name = String(reflecting: R.self)
    let invariants = invariants.map { ExplorationInvariant<R.State>($0.key, holds: $0.value) }
    var testFactory: (@Sendable ([String: String]) -> ReactorFactory)?
    if let test {
      testFactory = { metadata in test(ReactorContext.Metadata(metadata)) }
    }
    entries[name] = Entry(
      testFactory: testFactory,
      payloadFreeActions: ScriptCase.payloadFreeCases(of: R.Action.self),
      brokenInvariant: Self.invariantCheck(invariants),
      record: { script, metadata, settle, willRun throws(ScriptError) in
        let clock = TestClock()
        let (reactor, deliver) = make(ReactorContext(clock: clock, metadata: metadata))
        let screen = view?(reactor)
        defer { ReactorTrap.clear() }
        let trace = try await ScriptRunner.record(
          script, reactor: reactor, clock: clock, deliver: deliver, metadata: metadata,
          settle: settle,
          willRun: { stage in
            ReactorTrap.running(stage)
            willRun?(stage)
          })
        return (trace, screen?())
      },
      reduce: { path, metadata throws(ReplayError) in
        let (reactor, _) = make(ReactorContext(clock: ContinuousClock(), metadata: metadata))
        return try ReduceReplay.run(
          path: path, through: reactor, allowingReactorMismatch: true,
          willReduce: { ReactorTrap.at(sequence: $0) })
      },
      mutate: { path, metadata, effects, willSend throws(ReplayError) in
        let clock = TestClock()
        let (reactor, deliver) = make(ReactorContext(clock: clock, metadata: metadata))
        if effects == .recorded {
          // The trace's stream mutations are delivered from it: the scripted events that
          // made them are not handed to the fakes again.
          return try await MutateReplay.run(
            path: path, through: reactor, clock: clock, advance: { await clock.advance(by: $0) },
            allowingReactorMismatch: true, effects: .recorded, willSend: willSend)
        }
        let feed = try Self.feed(
          of: Event.self, from: metadata, clock: clock, deliver: deliver)
        return try await MutateReplay.run(
          path: path, through: reactor, clock: clock, advance: { await feed.advance(by: $0) },
          allowingReactorMismatch: true, willSend: willSend)
      },
      explore: { values, metadata, options, willRun throws(ExplorationError) in
        guard let decodable = R.Action.self as? any Decodable.Type else {
          throw .undecodableAction(
            String(reflecting: R.Action.self), reason: "the action type is not Decodable")
        }
        var alphabet: [(action: R.Action, value: JSONValue)] = []
        for value in values {
          do {
            guard let action = try ScriptCase.decode(decodable, from: value) as? R.Action
            else { throw ScriptError.notDecodable(String(reflecting: R.Action.self)) }
            alphabet.append((action, value))
          } catch {
            throw .undecodableAction(value.serializedString, reason: "\(error)")
          }
        }
        let explorer = ReactorExplorer<R>(
          reactor: name, alphabet: alphabet, invariants: invariants
        ) { clock in make(ReactorContext(clock: clock, metadata: metadata)).0 }
        return try await explorer.explore(options, willRun: willRun)
      })
  }

  /// The check of a reactor type's invariants on a recorded state, decoded as its State;
  /// `nil` with no invariants or a State that is not Decodable.
  private static func invariantCheck<State>(
    _ invariants: [ExplorationInvariant<State>]
  ) -> (@Sendable (JSONValue) -> String?)? {
    guard !invariants.isEmpty, State.self is any Decodable.Type else { return nil }
    return { json in
      guard let decodable = State.self as? any Decodable.Type,
        let state = try? JSONValueDecoder().decode(decodable, from: json) as? State
      else { return nil }
      return invariants.first { !$0.holds(state) }?.name
    }
  }

  /// The feed of the scripted events a trace's metadata holds, decoded for the reactor's
  /// fakes.
  @MainActor
  private static func feed<Event: Decodable>(
    of type: Event.Type, from metadata: [String: String], clock: TestClock<Duration>,
    deliver: (@MainActor (Event) -> Void)?
  ) throws(ReplayError) -> ScriptedEventFeed<Event> {
    do throws(ScriptError) {
      guard let deliver else {
        guard try ScriptedEvents(metadata: metadata).events.isEmpty else {
          throw .unusableEvents(
            reason: "the trace holds scripted events, but the reactor is registered without "
              + "an event type")
        }
        return ScriptedEventFeed(events: [], clock: clock, deliver: { _ in })
      }
      return try ScriptedEventFeed(
        metadata: metadata, as: Event.self, clock: clock, deliver: deliver)
    } catch {
      throw .undecodable(line: 1, reason: error.description)
    }
  }

  /// The test factory `reactor` is registered with, for a trace's `metadata`; `nil` for a
  /// reactor registered without one, or not registered.
  func testFactory(for reactor: String, metadata: [String: String]) -> ReactorFactory? {
    entry(named: reactor)?.testFactory?(metadata)
  }

  /// How a generated test builds `subject`: the test factory its reactor is registered
  /// with, or its app's session factory, for a recording's `metadata`.
  func testFactory(for subject: TestSubject, metadata: [String: String]) -> TestFactory? {
    switch subject {
    case .reactor(let reactor): testFactory(for: reactor, metadata: metadata).map { .reactor($0) }
    case .app(let app): sessionTestFactory(for: app, metadata: metadata).map { .app($0) }
    }
  }

  /// The replays for a registered type name (see ``registeredName(matching:)``).
  func entry(named name: String) -> Entry? {
    registeredName(matching: name).flatMap { entries[$0] }
  }

  /// The error line for a name no registered reactor matches:
  /// `unknown reactor 'Foo'; registered: ReactorExamples.CounterReactor, …`.
  func unknownReactorMessage(_ name: String) -> String {
    "unknown reactor '\(name)'; registered: "
      + (names.isEmpty ? "none" : names.joined(separator: ", "))
  }

  /// The registered type name that `name` stands for.
  ///
  /// Besides the full name (`ReactorExamples.CounterReactor`), a name that picks out one
  /// registered reactor unambiguously is accepted, ignoring case: its type name without the
  /// module (`CounterReactor`), or that without the `Reactor` suffix (`counter`).
  func registeredName(matching name: String) -> String? {
    if entries[name] != nil { return name }
    let wanted = name.lowercased()
    let matches = entries.keys.filter { registered in
      let typeName = ReactorIntroduction.shortTypeName(registered).lowercased()
      return typeName == wanted
        || (typeName.hasSuffix("reactor") && typeName.dropLast("reactor".count) == wanted)
    }
    return matches.count == 1 ? matches.first : nil
  }

  /// How to record and replay traces of one registered reactor type.
  struct Entry: Sendable {
    /// How a generated test builds the reactor, given a trace's metadata.
    let testFactory: (@Sendable ([String: String]) -> ReactorFactory)?
    /// The `Action` cases without payload: the alphabet `explore` tries when given none.
    let payloadFreeActions: [JSONValue]
    /// The name of a registered invariant a recorded state (JSON) breaks, or `nil`; `nil`
    /// when none is registered or the State is not Decodable.
    let brokenInvariant: (@Sendable (JSONValue) -> String?)?
    /// Records the reactor driven by a script, with the given header metadata, waiting at
    /// most the given virtual time after the last step for effects to end, telling the hook
    /// (after the trap report) what runs next.
    let record:
      @MainActor @Sendable (
        ReactorScript, [String: String], Duration, (@MainActor (ScriptStage) -> Void)?
      ) async throws(ScriptError) -> (trace: Trace, screen: String?)
    let reduce: @MainActor @Sendable (String, [String: String]) throws(ReplayError) -> ReplayResult
    let mutate:
      @MainActor @Sendable (String, [String: String], ReplayEffects, ((Int, String) -> Void)?)
        async throws(ReplayError) -> ReplayResult
    let explore:
      @MainActor @Sendable (
        [JSONValue], [String: String], ExplorationOptions,
        (@MainActor (ExplorationScript) -> Void)?
      ) async throws(ExplorationError) -> Exploration
  }
}

/// What a registered reactor's factory gets: the clock to run on and the trace's metadata.
public struct ReactorContext: Sendable {
  /// The clock: a test clock that the replay advances to each recorded time, or the
  /// continuous clock for reduce replay (which never waits).
  public var clock: any Clock<Duration>
  /// The trace header's metadata, such as options the recorded reactor was built with.
  public var metadata: [String: String]

  /// A context.
  public init(clock: any Clock<Duration>, metadata: [String: String]) {
    self.clock = clock
    self.metadata = metadata
  }

  /// The metadata value for `key` as an integer, or `nil` when it is absent or not one.
  public func integer(_ key: String) -> Int? {
    Metadata(metadata).integer(key)
  }

  /// A trace's metadata, as a registered reactor's test factory gets it.
  public struct Metadata: Sendable {
    /// The trace header's metadata.
    public var values: [String: String]

    /// The metadata `values`.
    public init(_ values: [String: String]) {
      self.values = values
    }

    /// The value for `key`, or `nil`.
    public subscript(key: String) -> String? { values[key] }

    /// The value for `key` as an integer (spaces ignored), or `nil` when it is absent or not
    /// one.
    public func integer(_ key: String) -> Int? {
      values[key].flatMap { Int(String($0.filter { !$0.isWhitespace })) }
    }
  }
}

extension ReactorTraceCommand {
  /// Runs `reactor-trace` from the process's arguments with these reactors registered, and
  /// exits with the command's code.
  public static func runFromCommandLine(registry: ReactorRegistry) async {
    SignalCleanup.install()
    ReactorTrap.install()
    // This binary runs `shrink`'s candidates and each session type's exploration in worker
    // processes of its own (same registry).
    await ShrinkRequest.$workerExecutable.withValue(Bundle.main.executablePath) {
      await ReactorRegistry.$current.withValue(registry) {
        await ExplorationRun.$executable.withValue(Bundle.main.executablePath) {
          await main()
        }
      }
    }
  }
}
