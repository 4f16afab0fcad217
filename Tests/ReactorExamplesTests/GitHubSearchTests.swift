import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import Testing

@MainActor
@Suite struct GitHubSearchTests {
  private func makeReactor(_ clock: TestClock<Duration>) -> GitHubSearchReactor {
    GitHubSearchReactor(service: FakeGitHubSearchService(clock: clock))
  }

  /// A reactor on a new test clock whose search for `query` has returned its first page.
  private func searched(_ query: String) async -> (TestClock<Duration>, GitHubSearchReactor) {
    let clock = TestClock()
    let reactor = makeReactor(clock)
    reactor.send(.updateQuery(query))
    await clock.advance(by: .milliseconds(300))
    return (clock, reactor)
  }

  @Test func typingCancelsTheStaleSearchSoOnlyTheLatestQueryHasResults() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = makeReactor(clock)
      var results: [[String]] = []
      let subscription = reactor.state.map(\.repos).removeDuplicates().observe {
        results.append($0)
      }
      reactor.send(.updateQuery("re"))
      await clock.advance(by: .milliseconds(200))
      reactor.send(.updateQuery("reactor"))
      await clock.advance(by: .milliseconds(1_000))
      #expect(results == [[], ["octo/reactor-1", "octo/reactor-2", "octo/reactor-3"]])
      #expect(reactor.currentState.nextPage == 2)
      subscription.cancel()
    }
  }

  @Test func nextPageLoadsAreGuardedAndStopAtTheLastPage() async {
    await withExclusiveMainSerialExecutor {
      let (clock, reactor) = await searched("swift")
      reactor.send(.loadNextPage)
      #expect(reactor.currentState.isLoadingNextPage)
      reactor.send(.loadNextPage)  // ignored: a page is loading
      await clock.advance(by: .milliseconds(300))
      #expect(reactor.currentState.repos.count == 6)
      #expect(reactor.currentState.isLoadingNextPage == false)
      reactor.send(.loadNextPage)
      await clock.advance(by: .milliseconds(300))
      #expect(reactor.currentState.repos.count == 8)
      #expect(reactor.currentState.nextPage == nil)
      reactor.send(.loadNextPage)  // ignored: no next page
      #expect(reactor.currentState.isLoadingNextPage == false)
    }
  }

  @Test func aNewQueryCancelsANextPageLoadAndClearsTheFooter() async {
    await withExclusiveMainSerialExecutor {
      let (clock, reactor) = await searched("swift")
      reactor.send(.loadNextPage)
      await clock.advance(by: .milliseconds(100))
      reactor.send(.updateQuery("swiftui"))
      await clock.advance(by: .zero)  // the cancelled load ends, then the footer hides
      #expect(reactor.currentState.isLoadingNextPage == false)
      #expect(reactor.currentState.query == "swiftui")
      await clock.advance(by: .milliseconds(300))
      #expect(reactor.currentState.repos == ["octo/swiftui-1", "octo/swiftui-2", "octo/swiftui-3"])
    }
  }

  @Test func aFailedSearchShowsNoResults() async {
    await withExclusiveMainSerialExecutor {
      let (clock, reactor) = await searched("reactor")
      reactor.send(.updateQuery("reactor!"))
      await clock.advance(by: .milliseconds(300))
      #expect(reactor.currentState.repos.isEmpty)
      #expect(reactor.currentState.nextPage == nil)
    }
  }

  @Test func anEmptyQueryClearsTheResultsWithoutARequest() async {
    await withExclusiveMainSerialExecutor {
      let (_, reactor) = await searched("reactor")
      reactor.send(.updateQuery(""))
      #expect(reactor.currentState.repos.isEmpty)
    }
  }

  @Test func theViewShowsTheQueryResultsAndFooter() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let view = GitHubSearchView()
      view.reactor = makeReactor(clock)
      view.type("reactor")
      await clock.advance(by: .milliseconds(300))
      #expect(view.text == #"search "reactor": 3 results (octo/reactor-1, …)"#)
      view.scrollToBottom()
      #expect(view.text == #"search "reactor": 3 results (octo/reactor-1, …) (loading more)"#)
      await clock.advance(by: .milliseconds(300))
      #expect(view.rows.count == 6)
      #expect(view.isFooterVisible == false)
    }
  }
}
