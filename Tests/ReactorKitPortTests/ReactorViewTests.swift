import ReactorCore
import Testing

private final class EmptyReactor: Reactor {
  typealias Action = Never
  typealias Mutation = Never
  struct State {}

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Never) -> State {}
}

/// ReactorKit's plain `View`: counts its bindings.
private final class CountingView: View {
  let binding = ViewBinding<EmptyReactor>()
  var bindInvokeCount = 0

  func bind(reactor: EmptyReactor) {
    bindInvokeCount += 1
    reactor.state.observe { _ in }.store(in: subscriptions)
  }
}

/// ReactorKit's deferred view (a view controller): binds only once its view has loaded.
private final class DeferredView: View {
  let binding = ViewBinding<EmptyReactor>(bindsWhenLoaded: true)
  var bindInvokeCount = 0
  private(set) var isLoaded = false

  func bind(reactor: EmptyReactor) { bindInvokeCount += 1 }

  /// What UIKit's `loadView` would do: the view exists, so the waiting binding happens.
  func loadView() {
    isLoaded = true
    viewDidLoadReactor()
  }
}

extension ReactorKitPort {
  /// ReactorKit's `ReactorViewTests` (`View` and `DeferredReactorView`).
  @MainActor
  @Suite struct ReactorView {
    @Test func assigningEachNewReactorBindsIt() {
      let view = CountingView()
      #expect(view.bindInvokeCount == 0)
      view.reactor = EmptyReactor()
      #expect(view.bindInvokeCount == 1)
      view.reactor = EmptyReactor()
      #expect(view.bindInvokeCount == 2)
    }

    @Test func assigningANewReactorCancelsTheOldBindings() {
      let view = CountingView()
      let first = EmptyReactor()
      view.reactor = first
      #expect(first.runtime.observerCount == 1)
      view.reactor = EmptyReactor()
      #expect(first.runtime.observerCount == 0)
      #expect(view.subscriptions.count == 1)
    }

    @Test func assignedReactorIsTheViewsReactor() {
      let reactor = EmptyReactor()
      let view = CountingView()
      view.reactor = reactor
      #expect(view.reactor === reactor)
    }

    @Test func assigningNilClearsTheReactor() {
      let view = CountingView()
      view.reactor = EmptyReactor()
      view.reactor = nil
      #expect(view.reactor == nil)
      #expect(view.subscriptions.count == 0)
    }

    @Test func deferredViewAlreadyLoadedBindsAtOnce() {
      let view = DeferredView()
      view.loadView()
      view.reactor = EmptyReactor()
      #expect(view.isLoaded)
      #expect(view.bindInvokeCount == 1)
    }

    @Test func deferredViewWaitsUntilLoaded() {
      let view = DeferredView()
      view.reactor = EmptyReactor()
      #expect(view.bindInvokeCount == 0)
      view.loadView()
      #expect(view.bindInvokeCount == 1)
    }

    @Test func deferredViewAndReactorDeallocateWhileWaiting() {
      weak var weakView: DeferredView?
      weak var weakReactor: EmptyReactor?
      do {
        let view = DeferredView()
        let reactor = EmptyReactor()
        weakView = view
        weakReactor = reactor
        view.reactor = reactor
        #expect(weakView != nil)
        #expect(weakReactor != nil)
      }
      #expect(weakView == nil)
      #expect(weakReactor == nil)
    }

    @Test func deferredViewBindsOnlyTheLatestReactorThenEachNewOne() {
      let view = DeferredView()
      view.reactor = EmptyReactor()
      #expect(view.bindInvokeCount == 0)
      view.reactor = EmptyReactor()
      #expect(view.bindInvokeCount == 0)
      view.loadView()
      #expect(view.bindInvokeCount == 1)
      view.reactor = EmptyReactor()
      #expect(view.bindInvokeCount == 2)
    }

    @Test func loadingTwiceBindsOnce() {
      let view = DeferredView()
      view.reactor = EmptyReactor()
      view.loadView()
      view.loadView()
      #expect(view.bindInvokeCount == 1)
    }
  }
}
