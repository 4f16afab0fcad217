import Testing

@testable import ReactorCore

/// A reactor with one pulse, assigned by some mutations and left alone by others.
private final class AlertReactor: Reactor {
  enum Action: Equatable {
    case alert(String?)
    case touchOther
  }

  struct State: Equatable {
    var other = 0
    @Pulse var message: String?
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .alert(let message): state.message = message
    case .touchOther: state.other += 1
    }
    return state
  }
}

extension CoreTests {
  @MainActor
  @Suite struct Pulses {
    @Test func everyAssignmentCountsEvenOfAnEqualValue() {
      var pulse = Pulse<String?>(wrappedValue: nil)
      #expect(pulse.valueUpdatedCount == 0)
      pulse.value = "a"
      pulse.value = "a"
      #expect(pulse.valueUpdatedCount == 2)
      var state = AlertReactor.State()
      state.message = "x"
      #expect(state.$message.valueUpdatedCount == 1)
      #expect(AlertReactor.State().$message.valueUpdatedCount == 0)
    }

    @Test func counterWrapsAtTheMaximum() {
      var pulse = Pulse(wrappedValue: 1)
      pulse.valueUpdatedCount = .max
      pulse.wrappedValue = 2
      #expect(pulse.valueUpdatedCount == 0)
      #expect(pulse.value == 2)
    }

    @Test func pulseDeliversOncePerAssignment() {
      let reactor = AlertReactor()
      let messages = Box<[String?]>([])
      let subscription = reactor.pulse(\.$message).observe { messages.value.append($0) }
      reactor.send(.alert("saved"))
      reactor.send(.touchOther)
      reactor.send(.alert("saved"))
      reactor.send(.alert(nil))
      #expect(messages.value == ["saved", "saved", nil])
      subscription.cancel()
    }

    @Test func newPulseObserverDoesNotReceiveAnEarlierAssignment() {
      let reactor = AlertReactor()
      reactor.send(.alert("old"))
      let messages = Box<[String?]>([])
      let subscription = reactor.pulse(\.$message).observe { messages.value.append($0) }
      #expect(messages.value.isEmpty)
      reactor.send(.alert("new"))
      #expect(messages.value == ["new"])
      subscription.cancel()
    }

    @Test func pulsesWithEqualValuesButDifferentCountsAreNotEqual() {
      var first = Pulse(wrappedValue: "a")
      let second = first
      first.value = "a"
      #expect(first != second)
    }
  }
}
