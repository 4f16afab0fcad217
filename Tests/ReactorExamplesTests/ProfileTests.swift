import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import Testing

@MainActor
@Suite struct ProfileTests {
  @Test func followingShowsProgressThenFollowsWhenTheRequestSucceeds() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = ProfileReactor(api: FakeUserAPI(clock: clock))
      reactor.send(.follow)
      #expect(reactor.currentState.isRequesting)
      #expect(reactor.currentState.isFollowing == false)
      await clock.advance(by: .milliseconds(300))
      #expect(reactor.currentState.isFollowing)
      #expect(reactor.currentState.isRequesting == false)
    }
  }

  @Test func aFailedFollowFallsBackToNotFollowingAndShowsTheErrorOnce() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = ProfileReactor(api: FakeUserAPI(clock: clock, failing: [1]))
      var errors: [String] = []
      let subscription = reactor.pulse(\.$errorMessage).observe {
        if let message = $0 { errors.append(message) }
      }
      reactor.send(.follow)
      await clock.advance(by: .milliseconds(300))
      #expect(reactor.currentState.isFollowing == false)
      #expect(reactor.currentState.isRequesting == false)
      #expect(errors == ["Could not follow: request 1 failed: the server is unavailable"])
      subscription.cancel()
    }
  }

  @Test func aFailedUnfollowFallsBackToFollowing() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = ProfileReactor(api: FakeUserAPI(clock: clock, failing: [2]))
      reactor.send(.follow)
      await clock.advance(by: .milliseconds(300))
      reactor.send(.unfollow)
      await clock.advance(by: .milliseconds(300))
      #expect(reactor.currentState.isFollowing)
      #expect(reactor.currentState.errorMessage?.hasPrefix("Could not unfollow") == true)
    }
  }

  @Test func theLastTapWinsWhenAFollowIsStillInFlight() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let api = FakeUserAPI(clock: clock, failing: [1])
      let reactor = ProfileReactor(api: api)
      reactor.send(.follow)
      await clock.advance(by: .milliseconds(100))
      reactor.send(.unfollow)
      await clock.advance(by: .milliseconds(300))
      // The first request was cancelled, so its failure never reached the state.
      #expect(api.requestCount == 2)
      #expect(reactor.currentState.isFollowing == false)
      #expect(reactor.currentState.errorMessage == nil)
      #expect(reactor.currentState.isRequesting == false)
    }
  }

  @Test func theViewLoadsTheUserAndTogglesTheFollowButton() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let view = ProfileView()
      view.reactor = ProfileReactor(userID: 7, api: FakeUserAPI(clock: clock))
      view.viewDidAppear()
      #expect(view.text == "Loading… [Follow]")
      await clock.advance(by: .milliseconds(300))
      #expect(view.text == "devxoul · 100 followers [Follow]")
      view.tapFollowButton()
      #expect(view.text == "devxoul · 100 followers [Follow] (busy)")
      view.tapFollowButton()  // disabled while the request runs
      await clock.advance(by: .milliseconds(300))
      #expect(view.text == "devxoul · 100 followers [Following]")
      view.tapFollowButton()
      await clock.advance(by: .milliseconds(300))
      #expect(view.isFollowButtonSelected == false)
    }
  }

  @Test func aStubbedReactorRecordsTheViewsActions() {
    let reactor = ProfileReactor(api: FakeUserAPI(clock: TestClock()))
    reactor.isStubEnabled = true
    let view = ProfileView()
    view.reactor = reactor
    view.viewDidAppear()
    view.tapFollowButton()
    #expect(reactor.stub.actions == [.refresh, .follow])
    var state = ProfileReactor.State(
      user: User(id: 1, name: "kim", followers: 3), isFollowing: true)
    state.errorMessage = "offline"  // a pulse fires on assignment, not on construction
    reactor.stub.state = state
    #expect(view.text == "kim · 3 followers [Following] error: offline")
  }
}
