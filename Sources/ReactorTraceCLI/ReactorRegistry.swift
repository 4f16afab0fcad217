import ArgumentParser
import Clocks
public import ReactorCore
import ReactorReplay
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
/// registry.register(ProfileReactor.self) { context in
///   ProfileReactor(api: FakeUserAPI(), clock: context.clock)
/// }
/// await ReactorTraceCommand.runFromCommandLine(registry: registry)
/// ```
public struct ReactorRegistry: Sendable {
  /// The registry the running command uses.
  @TaskLocal public static var current = ReactorRegistry()

  private var entries: [String: Entry] = [:]

  /// An empty registry.
  public init() {}

  /// The registered type names, sorted: `ReactorExamples.CounterReactor`.
  public var names: [String] { entries.keys.sorted() }

  /// Registers a reactor type under its module-qualified name, as traces record it.
  ///
  /// - Parameters:
  ///   - type: The reactor type. Reduce replay needs its Mutation and State to be Codable,
  ///     mutate replay and `record` its Action too.
  ///   - view: Binds a view to a reactor that `record` drives and returns how to read the
  ///     view's text; `record` prints it at the end, showing what the screen shows.
  ///   - make: Builds a fresh reactor with fakes for its dependencies, on the given clock.
  ///     The trace's metadata says how the recorded one was configured.
  public mutating func register<R: Reactor>(
    _ type: R.Type, view: (@MainActor @Sendable (R) -> @MainActor () -> String)? = nil,
    make: @escaping @MainActor @Sendable (ReactorContext) -> R
  ) {
    add(type, events: NoEvent.self, view: view) { context in (make(context), nil) }
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
  ///   - make: Builds a fresh reactor and the function that hands an event to its fakes.
  public mutating func register<R: Reactor, Event: Decodable>(
    _ type: R.Type, events: Event.Type,
    view: (@MainActor @Sendable (R) -> @MainActor () -> String)? = nil,
    make: @escaping @MainActor @Sendable (ReactorContext) -> (R, @MainActor (Event) -> Void)
  ) {
    add(type, events: events, view: view) { context in
      let (reactor, deliver) = make(context)
      return (reactor, deliver)
    }
  }

  private mutating func add<R: Reactor, Event: Decodable>(
    _ type: R.Type, events: Event.Type,
    view: (@MainActor @Sendable (R) -> @MainActor () -> String)?,
    make: @escaping @MainActor @Sendable (ReactorContext) -> (R, (@MainActor (Event) -> Void)?)
  ) {
    let name = String(reflecting: R.self)
    entries[name] = Entry(
      record: { script, metadata, settle throws(ScriptError) in
        let clock = TestClock()
        let (reactor, deliver) = make(ReactorContext(clock: clock, metadata: metadata))
        return try await ScriptRecording.record(
          reactor, deliver: deliver, view: view, script: script, clock: clock,
          metadata: metadata, settle: settle)
      },
      reduce: { path, metadata throws(ReplayError) in
        let (reactor, _) = make(ReactorContext(clock: ContinuousClock(), metadata: metadata))
        return try ReduceReplay.run(path: path, through: reactor, allowingReactorMismatch: true)
      },
      mutate: { path, metadata throws(ReplayError) in
        let clock = TestClock()
        let (reactor, deliver) = make(ReactorContext(clock: clock, metadata: metadata))
        let feed = ScriptedEventFeed(
          events: try Self.decodeEvents(Event.self, from: metadata, accepted: deliver != nil),
          clock: clock, deliver: deliver ?? { _ in })
        return try await MutateReplay.run(
          path: path, through: reactor, clock: clock, advance: { await feed.advance(by: $0) },
          allowingReactorMismatch: true)
      })
  }

  /// The scripted events a trace's metadata holds, decoded for the reactor's fakes.
  private static func decodeEvents<Event: Decodable>(
    _ type: Event.Type, from metadata: [String: String], accepted: Bool
  ) throws(ReplayError) -> [(Duration, Event)] {
    let stored: ScriptedEvents
    do {
      stored = try ScriptedEvents(metadata: metadata)
    } catch {
      throw .undecodable(line: 1, reason: error.reason)
    }
    guard accepted || stored.events.isEmpty else {
      throw .undecodable(
        line: 1,
        reason: "the trace holds scripted events, but the reactor is registered without an "
          + "event type")
    }
    var events: [(Duration, Event)] = []
    for event in stored.events {
      do {
        events.append((event.time, try JSONValueDecoder().decode(Event.self, from: event.value)))
      } catch {
        throw .undecodable(
          line: 1, reason: "scripted event \(event.value.serializedString): \(error)")
      }
    }
    return events
  }

  /// The event type of a reactor registered without events.
  private enum NoEvent: Decodable {
    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: "the reactor takes no events"))
    }
  }

  /// The replays for a registered type name.
  func entry(named name: String) -> Entry? { entries[name] }

  /// How to record and replay traces of one registered reactor type.
  struct Entry: Sendable {
    let record:
      @MainActor @Sendable (ActionScript, [String: String], Duration) async throws(ScriptError) ->
        (trace: Trace, screen: String?)
    let reduce: @MainActor @Sendable (String, [String: String]) throws(ReplayError) -> ReplayResult
    let mutate:
      @MainActor @Sendable (String, [String: String]) async throws(ReplayError) -> ReplayResult
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
    metadata[key].flatMap { Int(String($0.filter { !$0.isWhitespace })) }
  }
}

extension ReactorTraceCommand {
  /// Runs `reactor-trace` from the process's arguments with these reactors registered, and
  /// exits with the command's code.
  public static func runFromCommandLine(registry: ReactorRegistry) async {
    SignalCleanup.install()
    await ReactorRegistry.$current.withValue(registry) {
      await main()
    }
  }
}
