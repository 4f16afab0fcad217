import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// reactor-trace-bench: see BenchOptions.usage and docs/performance.md.
let arguments = Array(CommandLine.arguments.dropFirst())
do throws(BenchFailure) {
  if arguments.first == "child" {
    let command = try ChildCommand(arguments: Array(arguments.dropFirst()))
    var report = try await command.run()
    report.peakBytes = PeakMemory.currentProcessBytes
    print(report.line)
  } else {
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    try BenchDriver(options: BenchOptions(arguments: arguments), executable: executable).run()
  }
} catch {
  Progress.say("reactor-trace-bench: error: \(error)")
  exit(error.isUsage ? 64 : 1)
}
