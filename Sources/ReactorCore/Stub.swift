/// Replaces a reactor's pipeline in view tests: records the actions the view sends and lets
/// the test set the state the view shows.
///
/// ```swift
/// reactor.isStubEnabled = true
/// view.reactor = reactor
/// view.tapIncrease()
/// #expect(reactor.stub.actions == [.increase])
/// reactor.stub.state = State(value: 3)
/// #expect(view.valueText == "3")
/// ```
@MainActor
public final class Stub<Action: Sendable, State: Sendable> {
  /// Every action sent while the stub is enabled, in order.
  public internal(set) var actions: [Action] {
    get { recordedActions }
    set { recordedActions = newValue }
  }

  /// The storage of ``actions``, appended to from the reactor's inlined `send`.
  ///
  /// Main actor only, and never accessed while another access is in progress, so the dynamic
  /// exclusivity check is dropped.
  @usableFromInline @exclusivity(unchecked) var recordedActions: [Action] = []

  private let deliver: @MainActor (State) -> Void
  private var storedState: State

  /// Records an action sent while the stub is enabled.
  @inlinable
  func record(_ action: Action) {
    recordedActions.append(action)
  }

  init(initialState: State, deliver: @escaping @MainActor (State) -> Void) {
    self.storedState = initialState
    self.deliver = deliver
  }

  /// The stubbed state.
  ///
  /// Setting it delivers the new state to observers at once, even when
  /// equal to the previous one, and makes it the reactor's `currentState`. Set while a state
  /// is being delivered (by an observer, or an Observation `onChange`), it is delivered after
  /// that delivery ends, as a re-entrant action is: later observers see the state being
  /// delivered first, and everyone ends on the new one.
  public var state: State {
    get { storedState }
    set {
      storedState = newValue
      deliver(newValue)
    }
  }
}
