import ReactorExamples
import ReactorTraceCLI

// The example reactors, each built with fakes on the clock it is given. Options come from
// the trace's metadata: `limit` for the Counter, `failingRequests` (e.g. `3,5`) for the
// Profile, and `latency` (milliseconds) for the fakes of Profile, TaskList and GitHubSearch.
var registry = ReactorRegistry()
registry.register(CounterReactor.self, view: CounterView.bound(to:)) { context in
  CounterReactor(clock: context.clock, limit: context.integer("limit") ?? 10)
}
registry.register(ProfileReactor.self, view: ProfileView.bound(to:)) { context in
  let failing = (context.metadata["failingRequests"] ?? "").split(separator: ",")
    .compactMap { Int(String($0.filter { !$0.isWhitespace })) }
  return ProfileReactor(
    api: FakeUserAPI(
      clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 300),
      failing: Set(failing)))
}
registry.register(TaskListReactor.self, events: TaskEdit.self, view: TaskListView.bound(to:)) {
  context in
  let service = TaskService(
    clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 100))
  return (TaskListReactor(service: service), service.apply)
}
registry.register(GitHubSearchReactor.self, view: GitHubSearchView.bound(to:)) { context in
  GitHubSearchReactor(
    service: FakeGitHubSearchService(
      clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 300)))
}
registry.register(ItemListReactor.self, events: ItemStore.Event.self) { context in
  let store = ItemStore(
    clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 100))
  return (ItemListReactor(store: store), store.apply)
}
await ReactorTraceCommand.runFromCommandLine(registry: registry)
