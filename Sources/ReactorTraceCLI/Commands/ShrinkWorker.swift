import ArgumentParser
import Foundation
import ReactorScript
import ReactorShrinking
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace shrink-worker` (hidden): runs `shrink`'s candidates one at a time, read
  /// from standard input, each a JSON string holding a script, answering each with a line.
  struct ShrinkWorker: AsyncParsableCommand {
    /// The command's (hidden) help.
    static let configuration = CommandConfiguration(
      commandName: "shrink-worker",
      abstract: "Run shrink's candidates (started by shrink; not for direct use).",
      shouldDisplay: false)

    /// The condition.
    @OptionGroup var condition: ShrinkConditionOptions

    /// How long effects may run after the last step.
    @Option(help: "The most virtual milliseconds to wait after the last step.")
    var settle = 10_000

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Answers candidates until standard input ends.
    @MainActor
    func run() async throws {
      let condition = try self.condition.condition()
      while let line = readLine(strippingNewline: true) {
        guard case .string(let text)? = try? JSONValue(parsing: line),
          let script = try? ReactorScript(parsing: text, name: "candidate")
        else {
          answer(#"{"met": false, "run": 0, "failed": true, "detail": "not a script"}"#)
          continue
        }
        let count = script.steps.count
        let run = await ShrinkCandidate.run(
          script, condition: condition, settle: .milliseconds(settle),
          willRun: { stage in
            let number =
              switch stage {
              case .step(let number, _, _, _, _): number
              case .settling: count
              }
            // Published after the registry's own report, so a trap writes this line.
            ReactorTrap.running(#"{"trap": \#(number)}"#, exitCode: ReactorTrap.exitCode)
          })
        var answer: [(String, JSONValue)] = [
          ("met", .bool(run.isMet)), ("run", .int(Int64(run.stepsRun))),
        ]
        if let detail = run.detail { answer.append(("detail", .string(detail))) }
        if run.failed { answer.append(("failed", .bool(true))) }
        self.answer(JSONValue.object(JSONObject(answer)).serializedString)
      }
    }

    /// Writes one answer line to standard output, at once (the pipe is not buffered here).
    private func answer(_ line: String) {
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
  }
}
