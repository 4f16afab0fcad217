import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

/// Mutate replay with effects played back from the recording: no fakes that answer, only
/// doubles that fail the test if the replay calls them.
@MainActor
@Suite struct RecordedEffectsReplayTests {
  private static let traces = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Traces").path

  private func replay<R: Reactor>(
    _ path: String, through reactor: R, clock: TestClock<Duration> = TestClock()
  ) async throws -> ReplayResult {
    try await MutateReplay.run(
      path: path, through: reactor, clock: clock, advance: { await clock.advance(by: $0) },
      allowingReactorMismatch: true, effects: .recorded)
  }

  private func example(_ name: String) -> String { Self.traces + "/\(name).trace.jsonl" }

  @Test func everyExampleTraceReplaysThroughAReactorWhoseServicesFailIfCalled() async throws {
    try await withExclusiveMainSerialExecutor {
      let counter = try await replay(
        example("counter"), through: CounterReactor(clock: UncallableClock(), limit: 2))
      #expect(counter.failureMessage == nil)
      #expect(counter.stepsChecked == 10)
      #expect(counter.playedEffects.map(\.name) == ["increase", "increase"])

      let profile = try await replay(
        example("profile"), through: ProfileReactor(api: UncallableUserAPI()))
      #expect(profile.failureMessage == nil)
      #expect(profile.stepsChecked == 15)

      let tasks = try await replay(
        example("tasklist"),
        through: TaskListReactor(service: TaskService(clock: UncallableClock())))
      #expect(tasks.failureMessage == nil)
      #expect(tasks.stepsChecked == 9)

      let search = try await replay(
        example("github-search"), through: GitHubSearchReactor(service: UncallableSearchService()))
      #expect(search.failureMessage == nil)
      #expect(search.stepsChecked == 18)
      #expect(search.playedEffects.count == 9)
      #expect(search.playedEffects.allSatisfy { !$0.isCarriedOver })
    }
  }

  @Test func aRemovedCancelInFlightIsCaughtAtTheActionWhoseSearchNoLongerCancels() async throws {
    try await withExclusiveMainSerialExecutor {
      let result = try await replay(
        example("github-search"), through: SeededSearchReactor(bug: .noCancelInFlight))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 4)
      #expect(divergence.action == #"updateQuery("re")"#)
      #expect(
        divergence.reason
          == "the recording cancels effect 1 (search) at this action; today's code does not")
    }
  }

  @Test func aWrongEffectIDIsCaughtAtTheQueryThatNoLongerCancelsThePageLoad() async throws {
    try await withExclusiveMainSerialExecutor {
      let result = try await replay(
        example("github-search"), through: SeededSearchReactor(bug: .pageLoadWithAnotherID))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 41)
      #expect(divergence.action == #"updateQuery("swiftui")"#)
      #expect(
        divergence.reason
          == "the recording cancels effect 8 (next page) at this action; today's code does not")
    }
  }

  @Test func anEffectStartedForTheWrongActionIsCaughtThere() async throws {
    try await withExclusiveMainSerialExecutor {
      let result = try await replay(
        example("github-search"), through: SeededSearchReactor(bug: .searchForNextPage))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 14)
      #expect(divergence.action == "loadNextPage")
      #expect(
        divergence.reason
          == "the recording starts effect 4 (next page) at this action; today's mutate starts "
          + #"effect `search` (id "search", cancelInFlight) instead"#)
    }
  }

  @Test func aWrongSynchronousMutationIsCaughtAtItsAction() async throws {
    try await withExclusiveMainSerialExecutor {
      let result = try await replay(
        example("github-search"), through: SeededSearchReactor(bug: .uppercasedQuery))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 2)
      #expect(divergence.action == #"updateQuery("r")"#)
      #expect(divergence.mutation == #"setQuery("r")"#)
      #expect(
        divergence.reason
          == #"the trace has setQuery("r") from action updateQuery("r") (sent action 1), "#
          + #"the replay produced setQuery("R") from action updateQuery("r") (sent action 1)"#)
      #expect(result.stepsChecked == 0)
    }
  }

  @Test func aWrongReduceIsCaughtAtTheMutationFromARecordedEffect() async throws {
    try await withExclusiveMainSerialExecutor {
      let result = try await replay(
        example("github-search"), through: SeededSearchReactor(bug: .reposDropped))
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 12)
      #expect(divergence.mutation?.hasPrefix("setRepos(") == true)
      #expect(divergence.reason.hasPrefix("today's reduce returns another state"))
    }
  }

  @Test func aFlightRecorderWindowTakenMidSearchReplaysFromItsSnapshot() async throws {
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = GitHubSearchReactor(service: FakeGitHubSearchService(clock: clock))
      let recorder = try FlightRecorder(
        recording: reactor, keeping: FlightWindow(events: 12, duration: nil),
        options: TraceOptions(clock: clock))
      reactor.send(.updateQuery("r"))
      await clock.advance(by: .milliseconds(100))
      reactor.send(.updateQuery("re"))
      await clock.advance(by: .milliseconds(400))
      reactor.send(.loadNextPage)
      await clock.advance(by: .milliseconds(100))
      reactor.send(.updateQuery("reactor"))
      await clock.advance(by: .milliseconds(400))
      let window = recorder.trace
      recorder.stop()
      // The window starts after the search for "re" started: its results come from an
      // effect already running.
      let first = try #require(window.events.first)
      #expect(window.header.window != nil)
      guard case .mutation(let mutation) = first.kind, case .effect(2, 2) = mutation.cause else {
        Issue.record("the window does not start with the running search's results: \(first)")
        return
      }

      let replayClock = TestClock()
      let result = try await MutateReplay.run(
        window, through: GitHubSearchReactor(service: UncallableSearchService()),
        clock: replayClock, advance: { await replayClock.advance(by: $0) }, effects: .recorded)
      #expect(result.failureMessage == nil)
      #expect(result.stepsChecked == 5)
      #expect(
        result.playedEffects.map(\.description)
          == ["effect 2 (already running)", "effect 3 (next page)", "effect 4 (search)"])

      // The same window through a reduce that drops the results diverges at them.
      let seeded = try await MutateReplay.run(
        window, through: SeededSearchReactor(bug: .reposDropped), clock: TestClock(),
        advance: { _ in }, allowingReactorMismatch: true, effects: .recorded)
      #expect(seeded.divergence?.mutation?.hasPrefix("setRepos(") == true)
    }
  }

  /// The GitHub search example recorded with effect ids (format 1.3), on a test clock.
  private func searchRecordedWithEffectIDs() async throws -> Trace {
    let clock = TestClock()
    let reactor = GitHubSearchReactor(service: FakeGitHubSearchService(clock: clock))
    let recorder = try InMemoryTraceRecorder(
      recording: reactor, options: TraceOptions(clock: clock, recordsEffectIDs: true))
    reactor.send(.updateQuery("r"))
    await clock.advance(by: .milliseconds(100))
    reactor.send(.updateQuery("re"))
    await clock.advance(by: .milliseconds(400))
    reactor.send(.loadNextPage)
    await clock.advance(by: .milliseconds(400))
    await recorder.waitUntilIdle()
    recorder.stop()
    return recorder.trace
  }

  /// `trace` with its bytes edited: what another recording would have held.
  private func edited(_ trace: Trace, _ from: String, _ to: String) throws -> Trace {
    let text = String(decoding: trace.serialized, as: UTF8.self)
    #expect(text.contains(from))
    return try Trace(bytes: Array(text.replacingOccurrences(of: from, with: to).utf8))
  }

  @Test func effectIDsAreRecordedInFormat1_3AndReplayWithAMatch() async throws {
    try await withExclusiveMainSerialExecutor {
      let trace = try await searchRecordedWithEffectIDs()
      #expect(trace.header.version == TraceFormatVersion(major: 1, minor: 3))
      let text = String(decoding: trace.serialized, as: UTF8.self)
      #expect(
        text.contains(
          #""kind":"effectStart","effect":1,"action":1,"name":"search","cancelID":"SearchID()","#
            + #""cancelInFlight":true}"#))
      #expect(text.contains(#""name":"next page","cancelID":"SearchID()"}"#))
      let clock = TestClock()
      let result = try await MutateReplay.run(
        trace, through: GitHubSearchReactor(service: UncallableSearchService()), clock: clock,
        advance: { await clock.advance(by: $0) }, effects: .recorded)
      #expect(result.failureMessage == nil)
    }
  }

  @Test func aCancelInFlightTheRecordingDoesNotHaveIsCaughtAtTheActionThatStartsIt()
    async throws
  {
    try await withExclusiveMainSerialExecutor {
      // A recording whose search had the id "search" and no cancelInFlight, replayed through
      // a mutate that starts it with cancelInFlight (its reduce is wrong, but later).
      let recording = try edited(
        try await searchRecordedWithEffectIDs(),
        #""cancelID":"SearchID()","cancelInFlight":true"#, #""cancelID":"search""#)
      let result = try await MutateReplay.run(
        try edited(recording, #""cancelID":"SearchID()""#, #""cancelID":"search""#),
        through: SeededSearchReactor(bug: .reposDropped), clock: TestClock(), advance: { _ in },
        allowingReactorMismatch: true, effects: .recorded)
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 1)
      #expect(divergence.action == #"updateQuery("r")"#)
      #expect(
        divergence.reason
          == "today's mutate starts effect `search` with cancelInFlight; the recording has none "
          + "(effect 1 (search))")
    }
  }

  @Test func aRemovedCancelInFlightIsCaughtAtTheActionThatStartsTheSearch() async throws {
    try await withExclusiveMainSerialExecutor {
      let recording = try edited(
        try await searchRecordedWithEffectIDs(), #""cancelID":"SearchID()""#,
        #""cancelID":"search""#)
      let result = try await MutateReplay.run(
        recording, through: SeededSearchReactor(bug: .noCancelInFlight), clock: TestClock(),
        advance: { _ in }, allowingReactorMismatch: true, effects: .recorded)
      let divergence = try #require(result.divergence)
      // Seen where the search starts, not only where it no longer cancels (seq 4, in a trace
      // without effect ids).
      #expect(divergence.sequence == 1)
      #expect(
        divergence.reason
          == "the recording starts effect 1 (search) with cancelInFlight; today's mutate "
          + "starts effect `search` without")
    }
  }

  @Test func anotherEffectIDIsCaughtAtTheActionThatStartsTheEffect() async throws {
    try await withExclusiveMainSerialExecutor {
      let result = try await MutateReplay.run(
        try await searchRecordedWithEffectIDs(), through: SeededSearchReactor(bug: .reposDropped),
        clock: TestClock(), advance: { _ in }, allowingReactorMismatch: true, effects: .recorded)
      let divergence = try #require(result.divergence)
      #expect(divergence.sequence == 1)
      #expect(
        divergence.reason
          == "today's mutate starts effect `search` with id search; the recording has id "
          + "SearchID() (effect 1 (search))")
    }
  }

  @Test func aReactorWhoseServiceNeedsTheNetworkReplaysWhatARealRunRecorded() async throws {
    try await withExclusiveMainSerialExecutor {
      // What a QA session against the real backend recorded (the backend stands in here as a
      // double that answers after 250 ms).
      let clock = TestClock()
      let live = ForecastReactor(service: AnsweringForecastService(clock: clock))
      let recorder = try InMemoryTraceRecorder(
        recording: live, options: TraceOptions(clock: clock))
      live.send(.show(city: "Oslo"))
      await clock.advance(by: .milliseconds(100))
      live.send(.show(city: "Bergen"))
      await clock.advance(by: .milliseconds(300))
      live.send(.show(city: ""))
      await clock.advance(by: .milliseconds(300))
      await recorder.waitUntilIdle()
      recorder.stop()
      let trace = recorder.trace

      // Replayed without the network: the double fails the test if it is called.
      let replayClock = TestClock()
      let result = try await MutateReplay.run(
        trace, through: ForecastReactor(service: UncallableForecastService()),
        clock: replayClock, advance: { await replayClock.advance(by: $0) }, effects: .recorded)
      #expect(result.failureMessage == nil)
      #expect(result.stepsChecked == 7)
      #expect(result.playedEffects.map(\.effect) == [1, 2, 3])
    }
  }
}

// MARK: - Doubles that fail if called

/// A clock whose sleep fails the test: effects played back must not wait on it.
struct UncallableClock: Clock {
  var now: ContinuousClock.Instant { .now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    Issue.record("the replay ran an effect body that sleeps on the clock")
    throw CancellationError()
  }
}

/// A search service that fails the test if called.
struct UncallableSearchService: GitHubSearchService {
  func search(query: String, page: Int) async throws -> SearchPage {
    Issue.record("the replay called the search service (\(query), page \(page))")
    throw CancellationError()
  }
}

/// A user API that fails the test if called.
struct UncallableUserAPI: UserAPI {
  func user(id: Int) async throws -> User {
    Issue.record("the replay loaded user \(id)")
    throw CancellationError()
  }

  func follow(userID: Int) async throws {
    Issue.record("the replay followed user \(userID)")
  }

  func unfollow(userID: Int) async throws {
    Issue.record("the replay unfollowed user \(userID)")
  }
}

// MARK: - A reactor whose service needs the network

/// Fetches a city's forecast from a web service.
protocol ForecastService: Sendable {
  func forecast(for city: String) async throws -> String
}

/// The forecast service a replay must not call.
struct UncallableForecastService: ForecastService {
  func forecast(for city: String) async throws -> String {
    Issue.record("the replay asked the network for the forecast of \(city)")
    throw CancellationError()
  }
}

/// What the backend answered during the recorded session: after 250 ms, a forecast, or an
/// error for an empty city.
struct AnsweringForecastService: ForecastService {
  struct NoCity: Error, CustomStringConvertible {
    var description: String { "HTTP 400: no city" }
  }

  let clock: any Clock<Duration>

  func forecast(for city: String) async throws -> String {
    try await clock.sleep(for: .milliseconds(250))
    guard !city.isEmpty else { throw NoCity() }
    return "\(city): 12°C, rain"
  }
}

/// Shows the forecast of the city last asked for; a newer request cancels the one in flight.
final class ForecastReactor: Reactor {
  enum Action: Codable, Equatable, Sendable {
    case show(city: String)
  }

  enum Mutation: Codable, Equatable, Sendable {
    case setCity(String)
    case setForecast(String?)
    case setFailure(String)
  }

  struct State: Codable, Equatable, Sendable {
    var city = ""
    var forecast: String?
    var failure: String?
  }

  let initialState = State()
  let runtime = Runtime()
  private let service: any ForecastService

  init(service: any ForecastService) {
    self.service = service
  }

  func mutate(action: Action) -> Effect<Mutation> {
    let service = self.service
    switch action {
    case .show(let city):
      return .concat(
        .just(.setCity(city)),
        .run(id: "forecast", cancelInFlight: true, name: "forecast") { send in
          send(.setForecast(nil))
          send(.setForecast(try await service.forecast(for: city)))
        })
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setCity(let city): state.city = city
    case .setForecast(let forecast): state.forecast = forecast
    case .setFailure(let failure): state.failure = failure
    }
    return state
  }
}

// MARK: - Seeded bugs

/// The GitHub search example's `mutate` with one bug seeded in, and its `reduce`.
final class SeededSearchReactor: Reactor {
  typealias Action = GitHubSearchReactor.Action
  typealias Mutation = GitHubSearchReactor.Mutation
  typealias State = GitHubSearchReactor.State

  enum Bug {
    /// The search no longer cancels the one in flight.
    case noCancelInFlight
    /// The page load runs with another id, so a new search does not cancel it.
    case pageLoadWithAnotherID
    /// A page load starts a search (cancelling the search in flight) instead.
    case searchForNextPage
    /// The query is stored upper-cased.
    case uppercasedQuery
    /// `reduce` drops the results of a search.
    case reposDropped
  }

  let runtime = Runtime()
  let initialState: State
  private let bug: Bug
  private let reference: GitHubSearchReactor

  init(bug: Bug) {
    self.bug = bug
    reference = GitHubSearchReactor(service: UncallableSearchService())
    initialState = reference.initialState
  }

  func mutate(action: Action) -> Effect<Mutation> {
    let service = UncallableSearchService()
    switch action {
    case .updateQuery(let query):
      return .concat(
        .just(.setQuery(bug == .uppercasedQuery ? query.uppercased() : query)),
        .run(id: "search", cancelInFlight: bug != .noCancelInFlight, name: "search") { send in
          let page = try await service.search(query: query, page: 1)
          send(.setRepos(page.repos, nextPage: page.nextPage))
        })
    case .loadNextPage:
      let state = currentState
      guard !state.isLoadingNextPage, let next = state.nextPage else { return .none }
      let load: Effect<Mutation> =
        bug == .searchForNextPage
        ? .run(id: "search", cancelInFlight: true, name: "search") { _ in }
        : .run(id: bug == .pageLoadWithAnotherID ? "page" : "search", name: "next page") {
          send in
          let page = try await service.search(query: state.query, page: next)
          send(.appendRepos(page.repos, nextPage: page.nextPage))
        }
      return .concat(.just(.setLoadingNextPage(true)), load, .just(.setLoadingNextPage(false)))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    if bug == .reposDropped, case .setRepos = mutation { return state }
    return reference.reduce(state: state, mutation: mutation)
  }
}

/// Sessions replayed reactor by reactor through `mutate`, every effect played back.
@MainActor
@Suite struct SessionMutateReplayTests {
  private static let session = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Traces/taskapp.session.jsonl").path

  @Test func theTaskAppsEditScreenAndCellsReplayAsLanesWithoutAServiceThatAnswers() async throws {
    try await withExclusiveMainSerialExecutor {
      let session = try SessionTrace(contentsOf: Self.session)
      // The service sleeps on a clock that fails the test: no request may run.
      let service = TaskAppService(clock: UncallableClock())
      let clock = TestClock()
      let edit = try await MutateReplay.run(
        try #require(session.lane(of: 2)), through: TaskEditReactor(service: service),
        clock: clock, advance: { await clock.advance(by: $0) }, effects: .recorded)
      #expect(edit.failureMessage == nil)
      #expect(edit.stepsChecked >= 8)
      #expect(!edit.playedEffects.isEmpty)
      let cells = session.reactors.filter { $0.type == "ReactorExamples.TaskCellReactor" }
      #expect(cells.count >= 6)
      for cell in cells {
        let lane = try #require(session.lane(of: cell.reactor))
        // Each cell is built showing the task the session introduced it with.
        guard case .json(let state) = lane.header.initialState else {
          Issue.record("reactor \(cell.reactor) has no recorded state")
          continue
        }
        let task = try JSONDecoder().decode(
          TaskCellReactor.State.self, from: Data(state.serializedString.utf8)
        ).task
        let cellClock = TestClock()
        let result = try await MutateReplay.run(
          lane, through: TaskCellReactor(task: task, service: service), clock: cellClock,
          advance: { await cellClock.advance(by: $0) }, effects: .recorded)
        #expect(result.failureMessage == nil, "reactor \(cell.reactor)")
      }
    }
  }

  /// Replays the whole committed session in one run, every effect played back, through a
  /// task app whose service fails the test if it is asked to do anything.
  private func wholeSession(
    bindsViews: Bool = true
  ) async throws -> SessionMutateReplay.Result {
    let recorded = try SessionTrace(contentsOf: Self.session)
    let result = ResultBox<SessionMutateReplay.Result?>(nil)
    try await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      result.value = try await SessionMutateReplay.run(
        recorded, clock: clock, advance: { await clock.advance(by: $0) },
        including: { $0 is TaskAppListReactor || $0 is TaskCellReactor || $0 is TaskEditReactor },
        effects: .recorded
      ) { recorder in
        let app = TaskApp(clock: UncallableClock())
        recorder.record(app.list, name: "list")
        recorder.record(app.edit, name: "edit")
        if bindsViews { app.bindViews() }
        return app
      }
    }
    return try #require(result.value)
  }

  @Test func theWholeTaskAppSessionReplaysInOneRunWithEveryEffectPlayedBack() async throws {
    let result = try await wholeSession()
    #expect(result.isMatch, "\(result.divergence.map(String.init(describing:)) ?? "")")
    let recorded = try SessionTrace(contentsOf: Self.session)
    // Event for event the recorded session, service events and their origins included.
    #expect(result.replayed.serialized == recorded.serialized)
    #expect(result.userActions == 9)
    // The list's loads, the edit screen's saves and a row's toggle and the list's delete:
    // every effect of the session, none of them run.
    let played = result.playedEffects.map(\.description)
    #expect(played.contains("reactor 1 effect 1 (fetch tasks)"))
    #expect(played.contains("reactor 2 effect 1 (save)"))
    #expect(played.contains("reactor 2 effect 2 (save)"))
    #expect(Set(result.playedEffects.compactMap(\.reactor)).count >= 3)
  }

  @Test func anAppThatNoLongerBindsItsRowsIsCaughtAtTheRenameThatNoLongerReachesItsRow()
    async throws
  {
    let result = try await wholeSession(bindsViews: false)
    let divergence = try #require(result.divergence)
    // The rows exist (the list's state holds them) but none is observed, so no row merges
    // the service's events: the edit screen's rename, delivered from the recording, reaches
    // no row, and the replay goes on with the edit screen's next mutation.
    #expect(divergence.sequence == 35)
    #expect(divergence.reactor == 4)
    #expect(
      divergence.recorded?.hasPrefix("[r4] mutation setTask(") == true
        && divergence.recorded?.contains("← stream taskService from reactor 2, action 5, effect 2")
          == true
    )
    #expect(divergence.replayed?.hasPrefix("[r2] mutation setEditing(nil) ← effect 2") == true)
  }
}

/// A value set inside the main serial executor's closure and read after it.
private final class ResultBox<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
