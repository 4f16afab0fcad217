/// An object that displays a reactor's state and sends it the user's actions.
///
/// A view has no business logic of its own (ReactorKit's `View`); any class can be one.
/// Assigning ``reactor`` cancels every earlier binding (empties ``subscriptions``) and calls
/// ``bind(reactor:)``; assigning `nil` only cancels. A view that must wait until it has loaded
/// (ReactorKit's `StoryboardView`) creates its binding with `ViewBinding(bindsWhenLoaded: true)`
/// and calls ``viewDidLoadReactor()`` once loaded: only the latest reactor assigned by then
/// binds, once.
///
/// ```swift
/// final class CounterView: View {
///   let binding = ViewBinding<CounterReactor>()
///   private(set) var text = ""
///
///   func bind(reactor: CounterReactor) {
///     reactor.state.map { "\($0.value)" }.observe { [weak self] in self?.text = $0 }
///       .store(in: subscriptions)
///   }
///   func tapIncrease() { reactor?.send(.increase) }
/// }
/// ```
@MainActor
public protocol View: AnyObject {
  /// The type of reactor this view binds.
  associatedtype Reactor: ReactorCore.Reactor

  /// Where the view keeps its reactor and subscriptions: `let binding = ViewBinding<R>()`.
  var binding: ViewBinding<Reactor> { get }

  /// Binds user input to the reactor's actions and its state to the view.
  ///
  /// Store subscriptions in ``subscriptions`` so that reassigning the reactor cancels them.
  /// - Parameter reactor: The reactor just assigned.
  func bind(reactor: Reactor)
}

extension View {
  /// The view's reactor.
  ///
  /// Assigning it cancels earlier bindings and binds the new reactor.
  public var reactor: Reactor? {
    get { binding.reactor }
    set {
      binding.subscriptions.cancelAll()
      binding.reactor = newValue
      guard let newValue else {
        binding.isBindingPending = false
        return
      }
      if binding.bindsWhenLoaded && !binding.isLoaded {
        binding.isBindingPending = true
      } else {
        bind(reactor: newValue)
      }
    }
  }

  /// The bag that owns this view's bindings; emptied whenever ``reactor`` is reassigned.
  public var subscriptions: SubscriptionBag { binding.subscriptions }

  /// Tells a view created with `bindsWhenLoaded` that it has loaded.
  ///
  /// Binds the latest reactor assigned so far, once. Later calls do nothing.
  public func viewDidLoadReactor() {
    guard !binding.isLoaded else { return }
    binding.isLoaded = true
    guard binding.isBindingPending, let reactor = binding.reactor else { return }
    binding.isBindingPending = false
    bind(reactor: reactor)
  }
}

/// The storage of a ``View``: its reactor, its subscriptions and, for a view that binds only
/// once loaded, whether a binding is waiting.
@MainActor
public final class ViewBinding<Reactor: ReactorCore.Reactor> {
  var reactor: Reactor?
  let subscriptions = SubscriptionBag()
  let bindsWhenLoaded: Bool
  var isLoaded = false
  var isBindingPending = false

  /// Creates the storage.
  /// - Parameter bindsWhenLoaded: `true` for a view that binds only after
  ///   ``View/viewDidLoadReactor()`` (ReactorKit's `StoryboardView`).
  public init(bindsWhenLoaded: Bool = false) {
    self.bindsWhenLoaded = bindsWhenLoaded
  }
}
