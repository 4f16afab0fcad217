import ReactorExamples
import ReactorTestGeneration
public import ReactorTraceCLI
import ReactorTracing

extension ReactorRegistry {
  /// The example reactors, as the shipped `reactor-trace` registers them: each built with
  /// fakes on the clock it is given, and spelled once more as Swift source for the tests
  /// `generate-test` writes.
  ///
  /// Options come from the trace's metadata: `limit` for the Counter, `failingRequests`
  /// (e.g. `3,5`) for the Profile, and `latency` (milliseconds) for the fakes of Profile,
  /// TaskList, GitHubSearch and ItemList.
  public static var examples: ReactorRegistry {
    var registry = ReactorRegistry()
    let imports = ["ReactorExamples"]
    registry.register(
      CounterReactor.self, view: CounterView.bound(to:),
      test: { metadata in
        ReactorFactory(
          expression: "CounterReactor(clock: clock, limit: \(metadata.integer("limit") ?? 10))",
          imports: imports)
      },
      make: { context in
        CounterReactor(clock: context.clock, limit: context.integer("limit") ?? 10)
      })
    registry.register(
      ProfileReactor.self, view: ProfileView.bound(to:),
      test: { metadata in
        let failing = failingRequests(metadata).sorted()
        return ReactorFactory(
          setup: [
            "let api = FakeUserAPI(",
            "  clock: clock, latency: .milliseconds(\(metadata.integer("latency") ?? 300)), "
              + "failing: [\(failing.map(String.init).joined(separator: ", "))])",
            "let reactor = ProfileReactor(api: api)",
          ], imports: imports)
      },
      make: { context in
        ProfileReactor(
          api: FakeUserAPI(
            clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 300),
            failing: Set(failingRequests(ReactorContext.Metadata(context.metadata)))))
      })
    registry.register(
      TaskListReactor.self, events: TaskEdit.self, view: TaskListView.bound(to:),
      test: { metadata in
        ReactorFactory(
          setup: [
            "let service = TaskService(clock: clock, latency: "
              + ".milliseconds(\(metadata.integer("latency") ?? 100)))",
            "let reactor = TaskListReactor(service: service)",
          ], deliver: "service.apply", imports: imports)
      },
      make: { context in
        let service = TaskService(
          clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 100))
        return (TaskListReactor(service: service), service.apply)
      })
    registry.register(
      GitHubSearchReactor.self, view: GitHubSearchView.bound(to:),
      test: { metadata in
        ReactorFactory(
          setup: [
            "let service = FakeGitHubSearchService(",
            "  clock: clock, latency: .milliseconds(\(metadata.integer("latency") ?? 300)))",
            "let reactor = GitHubSearchReactor(service: service)",
          ], imports: imports)
      },
      make: { context in
        GitHubSearchReactor(
          service: FakeGitHubSearchService(
            clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 300)))
      })
    registry.register(
      ItemListReactor.self, events: ItemStore.Event.self,
      test: { metadata in
        ReactorFactory(
          setup: [
            "let store = ItemStore(clock: clock, latency: "
              + ".milliseconds(\(metadata.integer("latency") ?? 100)))",
            "let reactor = ItemListReactor(store: store)",
          ], deliver: "store.apply", imports: imports)
      },
      make: { context in
        let store = ItemStore(
          clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 100))
        return (ItemListReactor(store: store), store.apply)
      })
    // URLs in the action, the mutations and the state, recorded as strings.
    registry.register(
      BookmarkReactor.self,
      test: { _ in ReactorFactory(expression: "BookmarkReactor()", imports: imports) },
      make: { _ in BookmarkReactor() })
    // A like button whose mutations all come through an app-wide event stream: those its
    // own effect published are credited to its action, a scripted event (a like made on
    // another screen) to the stream.
    registry.register(
      LikeButtonReactor.self, events: PostService.Event.self,
      test: { metadata in
        ReactorFactory(
          setup: [
            "let service = PostService(clock: clock, latency: "
              + ".milliseconds(\(metadata.integer("latency") ?? 100)))",
            "let reactor = LikeButtonReactor(post: 1, service: service)",
          ], deliver: "service.apply", imports: imports)
      },
      make: { context in
        let service = PostService(
          clock: context.clock, latency: .milliseconds(context.integer("latency") ?? 100))
        return (LikeButtonReactor(post: 1, service: service), service.apply)
      })
    // The task app's reactors, for replays of its session one reactor at a time
    // (`replay SESSION --reactor-id N`): a row, and the edit screen.
    registry.register(TaskCellReactor.self) { context in
      TaskCellReactor(
        task: TaskService.sampleTasks[0], service: TaskAppService(clock: context.clock))
    }
    registry.register(TaskEditReactor.self) { context in
      TaskEditReactor(service: TaskAppService(clock: context.clock))
    }
    // The task app as a whole, for `replay --mode mutate` and `rerecord` of its sessions
    // (`"app":"TaskApp"` in their metadata): built and wired as `TaskApp` does, its two
    // screens named as the app names them.
    // The same factory spelled as Swift source for the tests `generate-test` writes.
    registry.registerSession(
      app: "TaskApp",
      including: { $0 is TaskAppListReactor || $0 is TaskCellReactor || $0 is TaskEditReactor },
      test: { _ in
        SessionFactory(
          setup: [
            "let app = TaskApp(clock: clock)",
            #"recorder.record(app.list, name: "list")"#,
            #"recorder.record(app.edit, name: "edit")"#,
            "app.bindViews()",
          ],
          including: "{ $0 is TaskAppListReactor || $0 is TaskCellReactor || "
            + "$0 is TaskEditReactor }",
          imports: imports)
      },
      make: { context in
        let app = TaskApp(clock: context.clock)
        context.recorder.record(app.list, name: "list")
        context.recorder.record(app.edit, name: "edit")
        app.bindViews()
        return app
      })
    // The todo app, ported from RxTodo: its list's rows are Codable reactors in sections,
    // its edit screens are created on demand (named "edit" by the naming rule when they
    // appear), one of them a subclass, and the list's view sends `refresh` when it loads.
    registry.register(TodoListReactor.self) { context in
      TodoListReactor(service: TodoService(clock: context.clock))
    }
    registry.register(TodoCellReactor.self) { _ in
      TodoCellReactor(task: TodoService.sampleTasks[0])
    }
    registry.register(TodoEditReactor.self) { context in
      TodoEditReactor(
        service: TodoService(clock: context.clock), task: TodoService.sampleTasks[0])
    }
    registry.register(TodoComposeReactor.self) { context in
      TodoComposeReactor(service: TodoService(clock: context.clock))
    }
    registry.registerSession(
      app: "TodoApp",
      including: { $0 is TodoListReactor || $0 is TodoCellReactor || $0 is TodoEditReactor },
      test: { _ in
        SessionFactory(
          setup: [
            #"recorder.name(TodoListReactor.self, "list")"#,
            #"recorder.name(TodoEditReactor.self, "edit")"#,
            "let app = TodoApp(clock: clock)",
            "app.viewDidLoad()",
          ],
          including: "{ $0 is TodoListReactor || $0 is TodoCellReactor || $0 is TodoEditReactor }",
          imports: imports)
      },
      make: { context in
        context.recorder.name(TodoListReactor.self, "list")
        context.recorder.name(TodoEditReactor.self, "edit")
        let app = TodoApp(clock: context.clock)
        app.viewDidLoad()
        return app
      })
    return registry
  }

  /// The Profile's `failingRequests` (`3,5`): the requests its fake API fails.
  private static func failingRequests(_ metadata: ReactorContext.Metadata) -> [Int] {
    (metadata["failingRequests"] ?? "").split(separator: ",")
      .compactMap { Int(String($0.filter { !$0.isWhitespace })) }
  }
}
