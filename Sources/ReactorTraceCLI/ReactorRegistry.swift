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
  ///     mutate replay its Action too.
  ///   - make: Builds a fresh reactor with fakes for its dependencies, on the given clock.
  ///     The trace's metadata says how the recorded one was configured.
  public mutating func register<R: Reactor>(
    _ type: R.Type, make: @escaping @MainActor @Sendable (ReactorContext) -> R
  ) {
    let name = String(reflecting: R.self)
    entries[name] = Entry(
      record: { script, metadata, settle throws(ScriptError) in
        let clock = TestClock()
        let reactor = make(ReactorContext(clock: clock, metadata: metadata))
        return try await ScriptRecording.record(
          reactor, script: script, clock: clock, metadata: metadata, settle: settle)
      },
      reduce: { path, metadata throws(ReplayError) in
        let reactor = make(ReactorContext(clock: ContinuousClock(), metadata: metadata))
        return try ReduceReplay.run(path: path, through: reactor, allowingReactorMismatch: true)
      },
      mutate: { path, metadata throws(ReplayError) in
        let clock = TestClock()
        let reactor = make(ReactorContext(clock: clock, metadata: metadata))
        return try await MutateReplay.run(
          path: path, through: reactor, clock: clock, advance: { await clock.advance(by: $0) },
          allowingReactorMismatch: true)
      })
  }

  /// The replays for a registered type name.
  func entry(named name: String) -> Entry? { entries[name] }

  /// How to record and replay traces of one registered reactor type.
  struct Entry: Sendable {
    let record:
      @MainActor @Sendable (ActionScript, [String: String], Duration) async throws(ScriptError) ->
        Trace
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
}

extension ReactorTraceCommand {
  /// Runs `reactor-trace` from the process's arguments with these reactors registered, and
  /// exits with the command's code.
  public static func runFromCommandLine(registry: ReactorRegistry) async {
    await ReactorRegistry.$current.withValue(registry) {
      await main()
    }
  }
}
