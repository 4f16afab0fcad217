import Clocks
import ConcurrencyExtras
import ReactorCore
import ReactorTestSupport
import Testing

/// A shared service whose events several reactors merge, as in the TaskList seed.
@MainActor
private final class EntryService {
  let events = Relay<String>()
}

/// A reactor that merges external sources into each of its three hooks.
private final class MergingReactor: Reactor {
  typealias Action = String
  typealias Mutation = String
  struct State: Equatable { var entries: [String] = [] }

  let initialState = State()
  let runtime = Runtime()
  let service: EntryService
  let externalActions: AsyncThrowingStream<String, any Error>?
  let externalStates: AsyncStream<State>?
  let debounceClock: TestClock<Duration>?

  init(
    service: EntryService,
    externalActions: AsyncThrowingStream<String, any Error>? = nil,
    externalStates: AsyncStream<State>? = nil,
    debounceClock: TestClock<Duration>? = nil
  ) {
    self.service = service
    self.externalActions = externalActions
    self.externalStates = externalStates
    self.debounceClock = debounceClock
  }

  func transform(action: Flow<String>) -> Flow<String> {
    var action = action
    if let debounceClock { action = action.debounce(for: .milliseconds(300), clock: debounceClock) }
    if let externalActions { action = action.merge(externalActions, name: "external actions") }
    return action.filter { !$0.isEmpty }
  }

  func transform(mutation: Flow<String>) -> Flow<String> {
    mutation.merge(service.events.flow(name: "service").map { "service: \($0)" })
  }

  func transform(state: Flow<State>) -> Flow<State> {
    guard let externalStates else { return state }
    return state.merge(externalStates, name: "external states")
  }

  func reduce(state: State, mutation: String) -> State {
    var state = state
    state.entries.append(mutation)
    return state
  }
}

extension CoreTests {
  @MainActor
  @Suite struct Flows {
    @Test func reactorsMergingOneServiceStayInSync() {
      let service = EntryService()
      let first = MergingReactor(service: service)
      let second = MergingReactor(service: service)
      first.send("own")
      second.send("")
      service.events.accept("done")
      #expect(first.currentState.entries == ["own", "service: done"])
      #expect(second.currentState.entries == ["service: done"])
    }

    @Test func mutationsFromAMergedStreamAreAttributedToIt() {
      let service = EntryService()
      let reactor = MergingReactor(service: service)
      let monitor = MonitorLog<String, String, MergingReactor.State>()
      reactor.runtime.monitor = monitor
      reactor.send("own")
      service.events.accept("done")
      #expect(
        monitor.lines == [
          "action 1 own from sent",
          "mutation 1 own from action(1)",
          "mutation 2 service: done from stream(\"service\")",
        ])
    }

    @Test func relaySubscriptionEndsWithTheReactor() {
      let service = EntryService()
      do {
        let reactor = MergingReactor(service: service)
        reactor.send("x")
        #expect(service.events.subscriberCount == 1)
      }
      #expect(service.events.subscriberCount == 0)
    }

    @Test func eventAcceptedWhileAStateIsDeliveredIsQueuedBehindIt() {
      let service = EntryService()
      let reactor = MergingReactor(service: service)
      let seen = Box<[[String]]>([])
      let subscription = reactor.state.observe { state in
        seen.value.append(state.entries)
        if state.entries == ["a"] { service.events.accept("echo") }
      }
      reactor.send("a")
      #expect(seen.value == [[], ["a"], ["a", "service: echo"]])
      subscription.cancel()
    }

    @Test(arguments: [nil, "socket closed"])
    func endedActionSourceEndsOnlyItself(failure: String?) async {
      await withExclusiveMainSerialExecutor {
        let (actions, continuation) = AsyncThrowingStream.makeStream(of: String.self)
        let reactor = MergingReactor(service: EntryService(), externalActions: actions)
        let monitor = MonitorLog<String, String, MergingReactor.State>()
        reactor.runtime.monitor = monitor
        reactor.send("sent")
        continuation.yield("external")
        continuation.finish(throwing: failure.map { TestFailure(description: $0) })
        await Task.megaYield()
        reactor.send("still works")
        #expect(reactor.currentState.entries == ["sent", "external", "still works"])
        #expect(monitor.lines.contains("action 2 external from stream(\"external actions\")"))
        #expect(
          monitor.lines.contains(
            "stream external actions ended\(failure.map { " with \($0)" } ?? "")"))
      }
    }

    @Test func finishedStateSourceEndsOnlyItself() async {
      await withExclusiveMainSerialExecutor {
        let (states, continuation) = AsyncStream.makeStream(of: MergingReactor.State.self)
        let reactor = MergingReactor(service: EntryService(), externalStates: states)
        let monitor = MonitorLog<String, String, MergingReactor.State>()
        reactor.runtime.monitor = monitor
        reactor.send("a")
        continuation.yield(.init(entries: ["injected"]))
        continuation.finish()
        await Task.megaYield()
        #expect(reactor.currentState.entries == ["injected"])
        // A state merged into the state flow is shown, not reduced from: `reduce` goes on
        // from the last state it returned, as ReactorKit's `scan` does.
        reactor.send("b")
        #expect(reactor.currentState.entries == ["a", "b"])
        #expect(monitor.lines.contains("stream external states ended"))
      }
    }

    @Test func debounceKeepsOnlyTheLastActionOfABurst() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = MergingReactor(service: EntryService(), debounceClock: clock)
        reactor.send("r")
        await clock.advance(by: .milliseconds(100))
        reactor.send("re")
        await clock.advance(by: .milliseconds(100))
        reactor.send("rea")
        await clock.advance(by: .milliseconds(299))
        #expect(reactor.currentState.entries == [])
        await clock.advance(by: .milliseconds(1))
        #expect(reactor.currentState.entries == ["rea"])
        reactor.send("reactor")
        await clock.advance(by: .milliseconds(300))
        #expect(reactor.currentState.entries == ["rea", "reactor"])
      }
    }
  }
}
