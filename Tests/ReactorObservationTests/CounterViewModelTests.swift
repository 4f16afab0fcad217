import Clocks
import Observation
import ReactorCore
import ReactorExamples
import ReactorObservation
import ReactorTestSupport
import Testing

/// The Counter example as a SwiftUI view would use it: an `ObservedReactor` read field by
/// field.
@MainActor
private struct CounterScreen {
  let model: ObservedReactor<CounterReactor>

  var valueText: String { "\(model.value)" }
  var showsSpinner: Bool { model.isLoading }
  var alert: String? { model.pulse(\.$alertMessage) }

  func tapIncrease() { model.send(.increase) }
  func tapDecrease() { model.send(.decrease) }
}

extension ObservationTests {
  @MainActor
  @Suite struct CounterViewModel {
    @Test func spinnerAndValueAreInvalidatedSeparately() async {
      await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let screen = CounterScreen(model: ObservedReactor(CounterReactor(clock: clock)))
        let spinner = InvalidationFlag()
        let value = InvalidationFlag()
        withObservationTracking {
          _ = screen.showsSpinner
        } onChange: {
          spinner.fire()
        }
        withObservationTracking {
          _ = screen.valueText
        } onChange: {
          value.fire()
        }

        screen.tapIncrease()
        #expect(spinner.hasFired)
        #expect(!value.hasFired)
        #expect(screen.showsSpinner)

        await clock.advance(by: .milliseconds(500))
        #expect(value.hasFired)
        #expect(screen.valueText == "1")
        #expect(!screen.showsSpinner)
      }
    }

    @Test func decreaseUpdatesTheValueBeforeSendReturns() {
      let screen = CounterScreen(model: ObservedReactor(CounterReactor(clock: TestClock())))
      #expect(invalidates({ screen.tapDecrease() }, reading: { _ = screen.valueText }))
      #expect(screen.valueText == "-1")
      #expect(!screen.showsSpinner)
    }

    @Test func limitAlertIsAPulse() {
      let screen = CounterScreen(
        model: ObservedReactor(CounterReactor(clock: TestClock(), limit: 0)))
      let counts = invalidationCounts(
        of: ["alert": { _ = screen.alert }, "value": { _ = screen.valueText }],
        over: [{ screen.tapIncrease() }, { screen.tapIncrease() }])
      #expect(counts == ["alert": 2, "value": 0])
      #expect(screen.alert == "Limit reached")
    }

    @Test func stubbedCounterDrivesThePreview() {
      let reactor = CounterReactor(clock: TestClock())
      reactor.isStubEnabled = true
      let screen = CounterScreen(model: ObservedReactor(reactor))
      screen.tapIncrease()
      reactor.stub.state = CounterReactor.State(value: 42, isLoading: true)
      #expect(reactor.stub.actions == [.increase])
      #expect(screen.valueText == "42")
      #expect(screen.showsSpinner)
    }
  }
}
