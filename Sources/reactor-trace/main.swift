import ReactorExampleRegistry
import ReactorTraceCLI

// The shipped binary knows the example reactors (Sources/ReactorExampleRegistry); a
// reactor-trace of your own registers yours the same way (README, "Your own reactors").
await ReactorTraceCommand.runFromCommandLine(registry: .examples)
