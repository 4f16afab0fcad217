import ReactorExamples
import ReactorTraceCLI

var registry = ReactorRegistry()
registry.register(CounterReactor.self) { context in
  CounterReactor(clock: context.clock, limit: context.metadata["limit"].flatMap(Int.init) ?? 10)
}
await ReactorTraceCommand.runFromCommandLine(registry: registry)
