import ReactorCore
import Testing

/// A view that renders the log reactor's entries as text and counts its bindings.
private final class EntriesView: View {
  let binding: ViewBinding<LogReactor>
  private(set) var text = ""
  private(set) var boundReactors: [ObjectIdentifier] = []

  init(bindsWhenLoaded: Bool = false) {
    binding = ViewBinding(bindsWhenLoaded: bindsWhenLoaded)
  }

  func bind(reactor: LogReactor) {
    boundReactors.append(ObjectIdentifier(reactor))
    reactor.state.map { $0.entries.joined(separator: ",") }
      .observe { [weak self] in self?.text = $0 }
      .store(in: subscriptions)
  }

  func tap(_ entry: String) {
    reactor?.send(.append(entry))
  }
}

extension CoreTests {
  @MainActor
  @Suite struct ViewBindings {
    @Test func assigningAReactorBindsIt() {
      let view = EntriesView()
      let reactor = LogReactor()
      view.reactor = reactor
      view.tap("a")
      #expect(view.text == "a")
      #expect(view.boundReactors == [ObjectIdentifier(reactor)])
      #expect(view.reactor === reactor)
    }

    @Test func reassigningCancelsEarlierBindings() {
      let view = EntriesView()
      let first = LogReactor()
      let second = LogReactor()
      view.reactor = first
      view.reactor = second
      #expect(first.runtime.observerCount == 0)
      #expect(second.runtime.observerCount == 1)
      first.send(.append("ignored"))
      #expect(view.text == "")
      second.send(.append("shown"))
      #expect(view.text == "shown")
    }

    @Test func assigningTheSameReactorAgainBindsAgain() {
      let view = EntriesView()
      let reactor = LogReactor()
      view.reactor = reactor
      view.reactor = reactor
      #expect(view.boundReactors.count == 2)
      #expect(reactor.runtime.observerCount == 1)
    }

    @Test func assigningNilOnlyCancels() {
      let view = EntriesView()
      let reactor = LogReactor()
      view.reactor = reactor
      view.reactor = nil
      #expect(reactor.runtime.observerCount == 0)
      #expect(view.boundReactors.count == 1)
      #expect(view.subscriptions.count == 0)
    }

    @Test func deferredViewBindsOnlyOnceLoaded() {
      let view = EntriesView(bindsWhenLoaded: true)
      let reactor = LogReactor()
      view.reactor = reactor
      #expect(view.boundReactors.isEmpty)
      view.viewDidLoadReactor()
      #expect(view.boundReactors == [ObjectIdentifier(reactor)])
      view.viewDidLoadReactor()
      #expect(view.boundReactors.count == 1)
    }

    @Test func deferredViewBindsOnlyTheLatestReactorOnce() {
      let view = EntriesView(bindsWhenLoaded: true)
      let first = LogReactor()
      let second = LogReactor()
      view.reactor = first
      view.reactor = second
      view.viewDidLoadReactor()
      #expect(view.boundReactors == [ObjectIdentifier(second)])
      #expect(first.runtime.observerCount == 0)
    }

    @Test func deferredViewBindsImmediatelyOnceLoaded() {
      let view = EntriesView(bindsWhenLoaded: true)
      view.viewDidLoadReactor()
      let reactor = LogReactor()
      view.reactor = reactor
      #expect(view.boundReactors == [ObjectIdentifier(reactor)])
    }

    @Test func deferredViewWithNilReactorBindsNothingWhenLoaded() {
      let view = EntriesView(bindsWhenLoaded: true)
      view.reactor = LogReactor()
      view.reactor = nil
      view.viewDidLoadReactor()
      #expect(view.boundReactors.isEmpty)
    }

    @Test func viewAndReactorDeallocateWhileWaitingToBind() {
      weak var weakView: EntriesView?
      weak var weakReactor: LogReactor?
      do {
        let view = EntriesView(bindsWhenLoaded: true)
        let reactor = LogReactor()
        view.reactor = reactor
        weakView = view
        weakReactor = reactor
      }
      #expect(weakView == nil)
      #expect(weakReactor == nil)
    }

    @Test func boundViewAndReactorDeallocate() {
      weak var weakView: EntriesView?
      weak var weakReactor: LogReactor?
      do {
        let view = EntriesView()
        let reactor = LogReactor()
        view.reactor = reactor
        view.tap("a")
        weakView = view
        weakReactor = reactor
      }
      #expect(weakView == nil)
      #expect(weakReactor == nil)
    }
  }
}
