import Clocks
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import Testing

@MainActor
@Suite struct TaskListTests {
  @Test func refreshLoadsTheServicesTasks() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let reactor = TaskListReactor(service: TaskService(clock: clock))
      reactor.send(.refresh)
      #expect(reactor.currentState.isLoading)
      await clock.advance(by: .milliseconds(100))
      #expect(reactor.currentState.tasks == TaskService.sampleTasks)
      #expect(reactor.currentState.isLoading == false)
    }
  }

  @Test func twoListsOnTheSameServiceStayInSync() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let service = TaskService(clock: clock)
      let first = TaskListReactor(service: service)
      let second = TaskListReactor(service: service)
      first.send(.refresh)
      second.send(.refresh)
      await clock.advance(by: .milliseconds(100))

      first.send(.toggle(id: 2))
      #expect(first.currentState.tasks[1].isDone == false)  // only the service changes it
      await clock.advance(by: .milliseconds(100))
      #expect(first.currentState.tasks[1].isDone)
      #expect(second.currentState.tasks[1].isDone)

      second.send(.add(title: "Ship it"))
      second.send(.delete(id: 1))
      await clock.advance(by: .milliseconds(100))
      let titles = ["Record a trace", "Render the diagram", "Ship it"]
      #expect(first.currentState.tasks.map(\.title) == titles)
      #expect(second.currentState.tasks == first.currentState.tasks)
      #expect(service.tasks == first.currentState.tasks)
    }
  }

  @Test func anEditFromAnotherScreenReachesTheList() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let service = TaskService(tasks: [], clock: clock)
      let reactor = TaskListReactor(service: service)
      // Observing builds the pipeline, which merges the service's events.
      let subscription = reactor.state.observe { _ in }
      service.apply(.create(title: "Reply to review"))
      service.apply(.setDone(id: 1, isDone: true))
      service.apply(.setDone(id: 99, isDone: true))  // no such task: nothing is published
      #expect(
        reactor.currentState.tasks == [TaskItem(id: 1, title: "Reply to review", isDone: true)])
      subscription.cancel()
    }
  }

  @Test func togglingAnUnknownTaskDoesNothing() {
    let reactor = TaskListReactor(service: TaskService(clock: TestClock()))
    reactor.send(.toggle(id: 42))
    #expect(reactor.currentState == .init())
  }

  @Test func theViewShowsCheckMarksAndSendsTaps() async {
    await withExclusiveMainSerialExecutor {
      let clock = TestClock()
      let view = TaskListView()
      view.reactor = TaskListReactor(service: TaskService(clock: clock))
      view.pullToRefresh()
      #expect(view.text == "(no tasks) (refreshing)")
      await clock.advance(by: .milliseconds(100))
      view.tapRow(at: 0)
      view.deleteRow(at: 2)
      view.tapRow(at: 9)  // no such row
      await clock.advance(by: .milliseconds(100))
      #expect(view.rows == ["[x] Write the reducer", "[ ] Record a trace"])
      #expect(view.text == "[x] Write the reducer; [ ] Record a trace")
    }
  }
}
