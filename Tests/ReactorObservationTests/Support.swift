import Foundation
import Observation
import ReactorCore
import ReactorObservation
import Synchronization
import Testing

/// Every observation suite is nested here so that they run one at a time: the counter test
/// drives a `TestClock` on the main serial executor.
@MainActor
@Suite(.serialized)
enum ObservationTests {}

/// Set once by an observation's `onChange`.
final class InvalidationFlag: Sendable {
  private let fired = Mutex(false)

  func fire() { fired.withLock { $0 = true } }
  var hasFired: Bool { fired.withLock { $0 } }
}

/// Counts, per named read, how many of the given steps invalidated it: before each step every
/// read is tracked afresh with `withObservationTracking` (as a view re-renders), and a read
/// counts once for a step if the step changed what it read.
@MainActor
func invalidationCounts(
  of reads: [String: () -> Void], over steps: [() -> Void]
) -> [String: Int] {
  var counts = reads.mapValues { _ in 0 }
  for step in steps {
    var flags: [String: InvalidationFlag] = [:]
    for (name, read) in reads {
      let flag = InvalidationFlag()
      withObservationTracking(read) { flag.fire() }
      flags[name] = flag
    }
    step()
    for (name, flag) in flags where flag.hasFired { counts[name, default: 0] += 1 }
  }
  return counts
}

/// Whether `step` invalidates what `read` reads.
@MainActor
func invalidates(_ step: () -> Void, reading read: () -> Void) -> Bool {
  let flag = InvalidationFlag()
  withObservationTracking(read) { flag.fire() }
  step()
  return flag.hasFired
}

/// A sign-up form: bindable fields, a loading flag, a pulse, and a field that is not
/// `Equatable`.
final class FormReactor: Reactor {
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case setName(String)
    case load
    case loaded
    case submit
  }

  struct State: Sendable {
    var name = ""
    var isSubscribed = false
    var isLoading = false
    var submissions = 0
    @Pulse var alert: String?
    var format: @Sendable (String) -> String = { $0 }
  }

  let initialState = State()
  let runtime = Runtime()
  private(set) var reduceCount = 0

  func reduce(state: State, mutation: Action) -> State {
    reduceCount += 1
    var state = state
    switch mutation {
    case .binding(let binding): binding.apply(to: &state)
    case .setName(let name): state.name = name.trimmingCharacters(in: .whitespaces)
    case .load: state.isLoading = true
    case .loaded: state.isLoading = false
    case .submit:
      state.submissions += 1
      state.alert = "Thanks"
    }
    return state
  }
}

/// A mutable reference, for collecting values in closures.
@MainActor
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
