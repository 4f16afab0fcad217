import Clocks
import Foundation
import ReactorCore
import ReactorTestSupport
import Testing

/// The reactor of a cell that only shows its item: no actions, the default `mutate` and
/// `reduce`.
private final class CellReactor: Reactor {
  typealias Action = NoAction
  struct State: Equatable, Sendable { var title: String }

  let initialState: State
  let runtime = Runtime()

  init(title: String) { initialState = State(title: title) }
}

/// A reactor whose `mutate` is left to the default: its actions cause nothing.
private final class IgnoringReactor: Reactor {
  enum Action: Sendable { case tap }
  enum Mutation: Sendable { case never }
  struct State: Equatable, Sendable { var taps = 0 }

  let initialState = State()
  let runtime = Runtime()
}

/// What the current user's session publishes.
private struct SessionEvent: Sendable {
  var user: String?
}

/// A profile header fed by the session: the current user from a holding relay, and one
/// session event giving two mutations through `flatMap`.
private final class HeaderReactor: Reactor {
  enum Action: Sendable { case refresh }
  enum Mutation: Equatable, Sendable {
    case setUser(String?)
    case setLoggedIn(Bool)
    case setBanner(String)
  }
  struct State: Equatable, Sendable {
    var user: String?
    var isLoggedIn = false
    var banner = ""
  }

  let initialState = State()
  let runtime = Runtime()
  let currentUser: HoldingRelay<String?>
  let events: Relay<SessionEvent>

  init(currentUser: HoldingRelay<String?>, events: Relay<SessionEvent>) {
    self.currentUser = currentUser
    self.events = events
  }

  func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
    mutation
      .merge(
        currentUser.flow(name: "currentUser").map { .setUser($0) },
        events.flow(name: "session").flatMap { event in
          [Mutation.setUser(event.user), .setLoggedIn(event.user != nil)]
        }
      )
      .startWith(.setBanner("Welcome"), name: "banner")
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setUser(let user): state.user = user
    case .setLoggedIn(let isLoggedIn): state.isLoggedIn = isLoggedIn
    case .setBanner(let banner): state.banner = banner
    }
    return state
  }
}

/// A page of a paginated feed.
private struct FeedPage: Sendable {
  var items: [String]
  var next: URL?
}

/// A paginated feed whose pages come from a fake API: the second page fails.
private final class FeedReactor: Reactor {
  enum Action: Sendable {
    case loadNextPage
  }
  enum Mutation: Equatable, Sendable {
    case setLoading(Bool)
    case append([String], next: URL?, loadedAt: Date)
  }
  struct State: Equatable, Sendable {
    var items: [String] = []
    var next: URL? = URL(string: "https://example.com/feed?page=1")
    var isLoading = false
    var loadedAt: Date?
  }

  struct PageFailed: Error {}

  let initialState = State()
  let runtime = Runtime()
  let clock: TestClock<Duration>

  init(clock: TestClock<Duration>) { self.clock = clock }

  func fetch(_ url: URL) async throws -> FeedPage {
    try await clock.sleep(for: .milliseconds(100))
    guard url.absoluteString.hasSuffix("page=1") else { throw PageFailed() }
    return FeedPage(items: ["a", "b"], next: URL(string: "https://example.com/feed?page=2"))
  }

  func mutate(action: Action) -> Effect<Mutation> {
    guard let next = currentState.next, !currentState.isLoading else { return .none }
    return .concat(
      .just(.setLoading(true)),
      .run { send in
        let page = try await self.fetch(next)
        send(.append(page.items, next: page.next, loadedAt: Date(timeIntervalSince1970: 0)))
      },
      .just(.setLoading(false)))
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setLoading(let isLoading):
      state.isLoading = isLoading
    case .append(let items, let next, let loadedAt):
      state.items += items
      state.next = next
      state.loadedAt = loadedAt
    }
    return state
  }
}

/// What a ReactorKit reactor is written with, and how ours differ where they do.
@MainActor
@Suite struct PortingTests {
  @Test func aCellReactorWithNoActionIsItsInitialState() {
    let cell = CellReactor(title: "Port the reactors")
    #expect(cell.currentState == CellReactor.State(title: "Port the reactors"))
    let (subscription, states) = cell.recordStates()
    #expect(states() == [CellReactor.State(title: "Port the reactors")])
    subscription.cancel()
  }

  @Test func theDefaultMutateCausesNothing() {
    let reactor = IgnoringReactor()
    reactor.send(.tap)
    #expect(reactor.currentState == IgnoringReactor.State())
  }

  @Test func aHoldingRelayAndStartWithDeliverTheirValuesOnceThePipelineIsBuilt() {
    let currentUser = HoldingRelay<String?>("ann")
    let events = Relay<SessionEvent>()
    let reactor = HeaderReactor(currentUser: currentUser, events: events)
    let (subscription, states) = reactor.recordStates()
    // Building the pipeline reduced the banner and the held user; a new observer gets the
    // state they made.
    #expect(states() == [HeaderReactor.State(user: "ann", isLoggedIn: false, banner: "Welcome")])
    currentUser.accept("bob")
    #expect(reactor.currentState.user == "bob")
    #expect(currentUser.value == "bob")
    var observed: [String?] = []
    let observation = currentUser.observe { observed.append($0) }
    currentUser.accept(nil)
    #expect(observed == ["bob", nil])
    observation.cancel()
    subscription.cancel()
  }

  @Test func flatMapTurnsOneEventIntoTwoMutationsInOrder() {
    let events = Relay<SessionEvent>()
    let reactor = HeaderReactor(currentUser: HoldingRelay(nil), events: events)
    let (subscription, states) = reactor.recordStates()
    events.accept(SessionEvent(user: "cy"))
    #expect(
      Array(states().suffix(2)) == [
        HeaderReactor.State(user: "cy", isLoggedIn: false, banner: "Welcome"),
        HeaderReactor.State(user: "cy", isLoggedIn: true, banner: "Welcome"),
      ])
    subscription.cancel()
  }

  /// RxSwift's `concat` stops at an error; ours goes on (docs/semantics.md, "Differences"):
  /// a `.run` that throws ends as a failed effect, and the loading flag the next step clears
  /// is cleared, as the `catchError` every ReactorKit app puts there would do.
  @Test func concatGoesOnAfterAFailedPageAndTheFeedStopsLoading() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = FeedReactor(clock: clock)
      reactor.send(.loadNextPage)
      #expect(reactor.currentState.isLoading)
      await clock.advance(by: .milliseconds(100))
      #expect(reactor.currentState.items == ["a", "b"])
      #expect(!reactor.currentState.isLoading)
      reactor.send(.loadNextPage)
      await clock.advance(by: .milliseconds(100))
      #expect(reactor.currentState.items == ["a", "b"])
      #expect(reactor.currentState.next?.absoluteString == "https://example.com/feed?page=2")
      #expect(!reactor.currentState.isLoading)
    }
  }

  @Test func aStubStateSetDuringADeliveryIsDeliveredAfterIt() {
    let reactor = IgnoringReactor()
    reactor.isStubEnabled = true
    var first: [Int] = []
    var second: [Int] = []
    let setter = reactor.state.observe { state in
      first.append(state.taps)
      if state.taps == 1 { reactor.stub.state = IgnoringReactor.State(taps: 2) }
    }
    let later = reactor.state.observe { second.append($0.taps) }
    reactor.stub.state = IgnoringReactor.State(taps: 1)
    // Every observer sees 1, then 2: the later one does not end on the older state.
    #expect(first == [0, 1, 2])
    #expect(second == [0, 1, 2])
    #expect(reactor.currentState.taps == 2)
    setter.cancel()
    later.cancel()
  }
}
