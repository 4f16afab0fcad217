import Observation
import ReactorCore
import ReactorObservation
import Testing

extension ObservationTests {
  @MainActor
  @Suite struct ObservedFields {
    @Test func eachFieldIsInvalidatedOnlyByItsOwnChanges() {
      let observed = ObservedReactor(FormReactor())
      let counts = invalidationCounts(
        of: [
          "name": { _ = observed.name },
          "isLoading": { _ = observed.isLoading },
          "submissions": { _ = observed.submissions },
        ],
        over: [
          { observed.send(.load) },
          { observed.send(.loaded) },
          { observed.send(.setName("Ada")) },
          { observed.send(.setName("Ada")) },  // an equal value: no change
          { observed.send(.submit) },
        ])
      #expect(counts == ["name": 1, "isLoading": 2, "submissions": 1])
    }

    @Test func wholeStateIsInvalidatedByEveryNewState() {
      let observed = ObservedReactor(FormReactor())
      let counts = invalidationCounts(
        of: ["state": { _ = observed.state }],
        over: [{ observed.send(.load) }, { observed.send(.setName("")) }])
      #expect(counts == ["state": 2])
    }

    @Test func fieldThatIsNotEquatableIsInvalidatedByEveryNewState() {
      let observed = ObservedReactor(FormReactor())
      #expect(invalidates({ observed.send(.load) }, reading: { _ = observed.format }))
    }

    @Test func pulseIsInvalidatedOncePerAssignmentOnly() {
      let observed = ObservedReactor(FormReactor())
      let counts = invalidationCounts(
        of: ["alert": { _ = observed.pulse(\.$alert) }],
        over: [
          { observed.send(.submit) },
          { observed.send(.submit) },  // the same message again: a new assignment
          { observed.send(.load) },  // no assignment
        ])
      #expect(counts == ["alert": 2])
      #expect(observed.pulse(\.$alert) == "Thanks")
    }

    @Test func readsSeeTheStateAfterEverySynchronousMutation() {
      let reactor = FormReactor()
      let observed = ObservedReactor(reactor)
      observed.send(.setName("  Grace "))
      #expect(observed.name == "Grace")
      #expect(observed.state.name == reactor.currentState.name)
    }

    @Test func readingInsideOnChangeStillSeesTheOldValue() {
      // Observation calls onChange before the change (willSet); a view re-reads afterwards.
      let observed = ObservedReactor(FormReactor())
      let seen = Box<[String]>([])
      withObservationTracking {
        _ = observed.name
      } onChange: {
        MainActor.assumeIsolated { seen.value.append(observed.name) }
      }
      observed.send(.setName("Ada"))
      #expect(seen.value == [""])
      #expect(observed.name == "Ada")
    }
  }

  @MainActor
  @Suite struct Bindings {
    @Test func bindingSendsTheActionAndReadsTheReducedValue() {
      let reactor = FormReactor()
      let observed = ObservedReactor(reactor)
      let name = observed.binding(get: \.name, send: { .setName($0) })
      name.wrappedValue = "  Ada  "
      #expect(name.wrappedValue == "Ada")
      #expect(reactor.currentState.name == "Ada")
      #expect(reactor.reduceCount == 1)
    }

    @Test func bindableActionWritesTheFieldThroughReduce() {
      let reactor = FormReactor()
      let observed = ObservedReactor(reactor)
      let subscribed = observed.binding(\.isSubscribed)
      #expect(
        invalidates({ subscribed.wrappedValue = true }, reading: { _ = subscribed.wrappedValue }))
      #expect(observed.isSubscribed)
      #expect(reactor.reduceCount == 1)
      #expect(
        !invalidates({ observed.send(.load) }, reading: { _ = subscribed.wrappedValue }))
    }

    @Test func bindingActionsCompareByFieldAndValue() {
      typealias Write = BindingAction<FormReactor.State>
      #expect(Write.set(\.name, "a") == Write.set(\.name, "a"))
      #expect(Write.set(\.name, "a") != Write.set(\.name, "b"))
      #expect(Write.set(\.isLoading, true) != Write.set(\.isSubscribed, true))
      #expect(Write.set(\.name, "a").applied(to: FormReactor.State()).name == "a")
      #expect("\(Write.set(\.name, "a"))".hasSuffix("to a"))
      #expect(\FormReactor.State.name ~= Write.set(\.name, "a"))
      #expect(!(\FormReactor.State.isLoading ~= Write.set(\.name, "a")))
    }
  }

  @MainActor
  @Suite struct StubAndLifetime {
    @Test func stubbedReactorRecordsActionsAndDrivesTheFields() {
      let reactor = FormReactor()
      reactor.isStubEnabled = true
      let observed = ObservedReactor(reactor)
      observed.send(.submit)
      observed.binding(\.name).wrappedValue = "typed"
      #expect(reactor.stub.actions == [.submit, .binding(.set(\.name, "typed"))])
      #expect(observed.name == "")
      var preview = FormReactor.State()
      preview.name = "Preview"
      #expect(invalidates({ reactor.stub.state = preview }, reading: { _ = observed.name }))
      #expect(observed.name == "Preview")
      #expect(reactor.reduceCount == 0)
    }

    @Test func releasingTheWrapperReleasesTheReactor() {
      weak var weakReactor: FormReactor?
      weak var weakObserved: ObservedReactor<FormReactor>?
      do {
        let reactor = FormReactor()
        let observed = ObservedReactor(reactor)
        withObservationTracking {
          _ = observed.name
        } onChange: {
        }
        observed.binding(\.name).wrappedValue = "x"
        weakReactor = reactor
        weakObserved = observed
      }
      #expect(weakObserved == nil)
      #expect(weakReactor == nil)
    }

    @Test func releasingTheWrapperEndsItsStateObservation() {
      let reactor = FormReactor()
      do {
        let observed = ObservedReactor(reactor)
        #expect(reactor.runtime.observerCount == 1)
        _ = observed.name
      }
      #expect(reactor.runtime.observerCount == 0)
    }
  }
}
