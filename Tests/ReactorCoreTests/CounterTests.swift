import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import Testing

extension CoreTests {
  @MainActor
  @Suite struct Counter {
    @Test func increaseShowsLoadingThenTheNewValueAfterHalfASecond() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = CounterReactor(clock: clock)
        reactor.send(.increase)
        #expect(reactor.currentState.isLoading)
        await clock.advance(by: .milliseconds(499))
        #expect(reactor.currentState.value == 0)
        await clock.advance(by: .milliseconds(1))
        #expect(reactor.currentState.value == 1)
        #expect(reactor.currentState.isLoading == false)
      }
    }

    @Test func overlappingIncreasesAreBothApplied() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let reactor = CounterReactor(clock: clock)
        let (subscription, states) = reactor.recordStates()
        reactor.send(.increase)
        await clock.advance(by: .milliseconds(200))
        reactor.send(.increase)
        await clock.advance(by: .milliseconds(500))
        #expect(reactor.currentState.value == 2)
        #expect(states().map(\.value) == [0, 0, 0, 1, 1, 2, 2])
        #expect(states().map(\.isLoading) == [false, true, true, true, false, false, false])
        subscription.cancel()
      }
    }

    @Test func viewRendersStateAndShowsTheLimitAlertOnce() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let view = CounterView()
        view.reactor = CounterReactor(clock: clock, limit: 1)
        view.tapIncrease()
        #expect(view.isIndicatorVisible)
        await clock.advance(by: .milliseconds(500))
        #expect(view.valueText == "1")
        #expect(view.isIndicatorVisible == false)
        view.tapIncrease()
        view.tapIncrease()
        #expect(view.alerts == ["Limit reached", "Limit reached"])
      }
    }

    @Test func stubbedReactorDrivesTheViewWithoutRunningTheReactor() {
      let reactor = CounterReactor(clock: TestClock())
      reactor.isStubEnabled = true
      let view = CounterView()
      view.reactor = reactor
      view.tapIncrease()
      view.tapDecrease()
      #expect(reactor.stub.actions == [.increase, .decrease])
      reactor.stub.state = .init(value: 42, isLoading: true)
      #expect(view.valueText == "42")
      #expect(view.isIndicatorVisible)
    }
  }
}
