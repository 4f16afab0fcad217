import ReactorCore
import Testing

/// A reactor whose state is a number, for the stub's state relay.
private final class NumberReactor: Reactor {
  typealias Action = Int
  typealias Mutation = Int
  typealias State = Int

  let initialState = 1
  let runtime = Runtime()

  func reduce(state: Int, mutation: Int) -> Int { mutation }
}

extension ReactorKitPort {
  /// ReactorKit's `ActionSubjectTests`: our counterpart of a subject that never fails or
  /// completes is `Relay`.
  @MainActor
  @Suite struct ActionSubject {
    @Test func subscriberCountFollowsSubscriptions() {
      let relay = Relay<Int>()
      let first = relay.observe { _ in }
      #expect(relay.subscriberCount == 1)
      let second = relay.observe { _ in }
      #expect(relay.subscriberCount == 2)
      second.cancel()
      #expect(relay.subscriberCount == 1)
      first.cancel()
      #expect(relay.subscriberCount == 0)
    }

    @Test func acceptedEventsArriveInOrder() {
      let relay = Relay<Int>()
      let received = Box<[Int]>([])
      let subscription = relay.observe { received.value.append($0) }
      for value in [1, 2, 3] { relay.accept(value) }
      #expect(received.value == [1, 2, 3])
      subscription.cancel()
    }

    @Test func relayCannotEndSoLaterEventsStillArrive() {
      let relay = Relay<Int>()
      let received = Box<[Int]>([])
      let subscription = relay.observe { received.value.append($0) }
      relay.accept(1)
      // There is no error or completion to send: the next event simply arrives.
      relay.accept(3)
      #expect(received.value == [1, 3])
      subscription.cancel()
    }
  }

  /// ReactorKit's `StateRelayTests`: its state relay holds the stub's state; ours is
  /// `Stub.state`, observed through the reactor's state stream.
  @MainActor
  @Suite struct StateRelay {
    @Test func observerGetsTheValueNowAndEveryNewOneUntilCancelled() {
      let a = NumberReactor()
      let b = NumberReactor()
      a.isStubEnabled = true
      b.isStubEnabled = true
      b.stub.state = 2
      let sum = Box<Int?>(nil)
      let subscriptions = SubscriptionBag()
      a.state.observe { [unowned b] in sum.value = $0 + b.currentState }.store(in: subscriptions)
      b.state.observe { [unowned a] in sum.value = a.currentState + $0 }.store(in: subscriptions)
      #expect(sum.value == 3)
      a.stub.state = 5
      #expect(sum.value == 7)
      b.stub.state = 9
      #expect(sum.value == 14)
      subscriptions.cancelAll()
      a.stub.state = 10
      #expect(sum.value == 14)
    }

    @Test func assignedValueIsReadBack() {
      let reactor = NumberReactor()
      reactor.isStubEnabled = true
      for value in [100, 200, 300] {
        reactor.stub.state = value
        #expect(reactor.stub.state == value)
        #expect(reactor.currentState == value)
      }
    }

    @Test func releasingTheReactorEndsItsStateStream() async {
      var reactor: NumberReactor? = NumberReactor()
      reactor?.isStubEnabled = true
      let values = reactor!.state.values
      reactor = nil
      var received: [Int] = []
      for await value in values { received.append(value) }
      #expect(received == [1])
    }
  }
}
