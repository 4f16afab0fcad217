import ArgumentParser
import ReactorTestGeneration
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace generate-test`: a Swift test that drives recorded runs again.
  struct GenerateTest: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      commandName: "generate-test",
      abstract: "Write a Swift test that drives recorded runs again and checks their states.",
      discussion: """
        One test per trace: the reactor is built on a TestClock (with --factory, or the test \
        factory the reactor is registered with), each recorded action is sent at its time, \
        scripted events are handed to the fakes, and after each action the fields that \
        changed are checked (--final-state: only the final state; --keys: only those fields). \
        Given sessions (format 2.x), each test builds the app through the session factory \
        registered for its app, sends the user's actions to the reactors with their recorded \
        ids, and checks every reactor's changed fields at every time the session shows.
        """
    )

    /// The traces.
    @Argument(
      help: "Trace files of the same reactor, or sessions of the same app; each becomes one test."
    )
    var traces: [String]

    /// Where the source goes.
    @Option(name: .shortAndLong, help: "The Swift file to write (default: standard output).")
    var output: String?

    /// Whether to write XCTest.
    @Flag(help: "Write an XCTestCase instead of a Swift Testing suite.")
    var xctest = false

    /// Whether to check only the final state.
    @Flag(help: "Check every field of the final state, once, at the end.")
    var finalState = false

    /// Fields to check.
    @Option(
      name: [.customLong("key"), .customLong("keys")], parsing: .upToNextOption,
      help: """
        Check only these fields (paths such as tasks.0.title, or comma separated), wherever \
        they change.
        """)
    var keys: [String] = []

    /// How the test builds its reactor.
    @Option(
      help: """
        A Swift expression that makes the reactor on `clock`, or a function name called as \
        name(clock: clock) (default: the test factory the reactor is registered with).
        """)
    var factory: String?

    /// How scripted events reach the fakes.
    @Option(help: "With --factory: a function expression that takes a scripted event.")
    var deliver: String?

    /// The suite's name.
    @Option(help: "The suite's (or XCTestCase's) name (default: from the first trace's name).")
    var suiteName: String?

    /// Modules to import.
    @Option(name: .customLong("import"), help: "A module to import (repeatable).")
    var imports: [String] = []

    /// The serial-executor function.
    @Option(help: "The function that runs each test on the main serial executor.")
    var serialExecutor = "withMainSerialExecutor"

    /// Traits for each test.
    @Option(name: .customLong("trait"), help: "A Swift Testing trait for every test (repeatable).")
    var traits: [String] = []

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      guard !traces.isEmpty else { throw ValidationError("Give at least one trace file.") }
      guard !(finalState && !keys.isEmpty) else {
        throw ValidationError("--final-state and --key do not go together.")
      }
      _ = try keyPaths()
      if let suiteName, !suiteName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
        throw ValidationError("--suite-name must be a Swift identifier.")
      }
    }

    /// `--key` as paths, commas separating several in one value.
    private func keyPaths() throws -> [StatePath] {
      try StatePath.arguments(
        keys.flatMap {
          $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        },
        of: "--key")
    }

    /// Generates and writes the test.
    func run() async throws {
      let keyList = try keyPaths()
      try await GenerateTestRequest(
        traces: traces, output: output,
        factory: factory.map { ReactorFactory(expression: $0, deliver: deliver) },
        suiteName: suiteName,
        options: TestGenerationOptions(
          framework: xctest ? .xctest : .swiftTesting,
          expectations: finalState ? .finalState : keyList.isEmpty ? .exhaustive : .keys(keyList),
          serialExecutor: serialExecutor, imports: imports, traits: traits)
      ).exit()
    }
  }
}

/// What `generate-test` was asked to do.
struct GenerateTestRequest: CommandRequest {
  var traces: [String]
  /// The Swift file to write, or `nil` for `output`.
  var output: String?
  /// How the test builds its reactor, or `nil` for the registered reactor's test factory (or
  /// the app's session factory).
  var factory: ReactorFactory?
  /// The suite's name, or `nil` for one from the first recording's name and subject.
  var suiteName: String?
  var options: TestGenerationOptions

  /// Generates the test, writes it, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let registry = ReactorRegistry.current
    var generator = TestGenerator(options: options)
    generator.options.suiteName = try suiteName ?? defaultSuiteName()
    // What each app's factory sends at start-up, learned by running it: the tests leave
    // those recorded actions to it.
    var startUpActions: [[String: String]: [SessionFactory.StartUpAction]] = [:]
    for trace in traces where factory == nil {
      guard let metadata = try? SessionReader(path: trace).header.metadata,
        let app = metadata["app"], startUpActions[metadata] == nil
      else { continue }
      startUpActions[metadata] = registry.sessionStartUpActions(for: app, metadata: metadata)
    }
    // A factory given builds one reactor: the generator refuses it for an app.
    let source = try generator.source(of: traces) { subject, metadata in
      if let factory { return .reactor(factory) }
      guard case .app(var session)? = registry.testFactory(for: subject, metadata: metadata)
      else { return registry.testFactory(for: subject, metadata: metadata) }
      session.startUpActions = startUpActions[metadata] ?? []
      return .app(session)
    }
    guard let output else {
      // The source ends with a newline, which `write` adds back.
      report.write(String(source.dropLast()))
      return .success
    }
    try OutputFiles.write(Array(source.utf8), to: output, inputs: traces)
    if output == OutputFiles.standardOutput { return .success }
    report.write("wrote \(output): \(traces.count) test\(traces.count == 1 ? "" : "s")")
    return .success
  }

  /// `CounterTraceTests` for `counter.trace.jsonl`, `TaskappSessionTests` for
  /// `taskapp.session.jsonl`: the first recording's name before its first dot in words,
  /// capitalized, and its subject's suffix.
  private func defaultSuiteName() throws(TestGenerationError) -> String {
    let first = traces[0].split(separator: "/").last.map(String.init) ?? traces[0]
    let stem = first.split(separator: ".").first.map(String.init) ?? "Recorded"
    let suite =
      stem.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
      .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
      + (try TestSubject(path: traces[0])).suiteSuffix
    return suite.first?.isLetter == true ? suite : "Recorded" + suite
  }
}
