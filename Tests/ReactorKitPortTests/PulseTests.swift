import Testing

@testable import ReactorCore

/// ReactorKit's alert reactor: an alert message pulse and a count.
private final class AlertReactor: Reactor {
  enum Action {
    case showAlert(message: String?)
    case increaseCount
  }
  enum Mutation {
    case setAlertMessage(String?)
    case increaseCount
  }
  struct State {
    @Pulse var alertMessage: String?
    var count = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func mutate(action: Action) -> Effect<Mutation> {
    switch action {
    case .showAlert(let message): return .just(.setAlertMessage(message))
    case .increaseCount: return .just(.increaseCount)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setAlertMessage(let message): state.alertMessage = message
    case .increaseCount: state.count += 1
    }
    return state
  }
}

extension ReactorKitPort {
  /// ReactorKit's `PulseTests`.
  @MainActor
  @Suite struct Pulses {
    @Test func everyAssignmentRaisesTheCountEvenOfTheSameValue() {
      struct State { @Pulse var value = 0 }
      var state = State()
      #expect(state.$value.valueUpdatedCount == 0)
      state.value = 10
      #expect(state.$value.valueUpdatedCount == 1)
      #expect(state.$value.valueUpdatedCount == 1)
      for (value, count) in [(20, 2), (20, 3), (20, 4), (30, 5), (30, 6)] as [(Int, UInt)] {
        state.value = value
        #expect(state.$value.valueUpdatedCount == count)
      }
    }

    @Test func countWrapsToZeroAfterTheMaximum() {
      var pulse = Pulse(wrappedValue: 0)
      pulse.valueUpdatedCount = .max
      #expect(pulse.valueUpdatedCount == .max)
      pulse.value = 1
      #expect(pulse.valueUpdatedCount == 0)
      pulse.value = 2
      #expect(pulse.valueUpdatedCount == 1)
    }
  }

  /// ReactorKit's `Reactor+PulseTests`.
  @MainActor
  @Suite struct ReactorPulse {
    @Test func pulseDeliversEachAssignmentOnly() {
      let reactor = AlertReactor()
      let messages = Box<[String]>([])
      let subscription = reactor.pulse(\.$alertMessage).observe { message in
        if let message { messages.value.append(message) }
      }
      let actions: [AlertReactor.Action] = [
        .showAlert(message: "1"), .increaseCount, .showAlert(message: nil),
        .showAlert(message: "2"), .showAlert(message: nil), .increaseCount,
        .showAlert(message: nil), .showAlert(message: "3"), .showAlert(message: "3"),
      ]
      for action in actions { reactor.send(action) }
      #expect(messages.value == ["1", "2", "3", "3"])
      #expect(reactor.currentState.count == 2)
      subscription.cancel()
    }
  }
}
