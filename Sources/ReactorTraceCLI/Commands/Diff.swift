public import ArgumentParser
import ReactorReplay
import ReactorTracing

extension ReactorTraceCommand {
  /// `reactor-trace diff`: where two traces of the same reactor first diverge.
  public struct Diff: ParsableCommand {
    /// The command's help.
    public static let configuration = CommandConfiguration(
      abstract: "Show where two traces of the same reactor first diverge.",
      discussion: "Exit codes: 0 the traces match, 1 they diverge, 2 unusable input."
    )

    /// The first trace.
    @Argument(help: "The first trace.")
    public var first: String

    /// The second trace.
    @Argument(help: "The second trace.")
    public var second: String

    /// Whether to print JSON.
    @Flag(help: "Print the result as one JSON object.")
    public var json = false

    /// Creates the command; ArgumentParser fills in the options.
    public init() {}

    /// Compares and reports.
    public func run() throws {
      let divergence: TraceDivergence?
      do {
        divergence = try TraceDiff.firstDivergence(path: first, second)
      } catch {
        throw CommandFailure.unusableInput(error.description)
      }
      var result = JSONObject()
      if let divergence {
        if json {
          result["result"] = "divergence"
          result["seq"] = .int(Int64(divergence.sequence))
          result["report"] = .string(divergence.description)
          print(JSONValue.object(result).serializedString)
        } else {
          print("divergence: \(divergence)")
        }
        throw CommandFailure.divergence()
      }
      if json {
        result["result"] = "match"
        print(JSONValue.object(result).serializedString)
      } else {
        print("match: \(first) and \(second) record the same events and states")
      }
    }
  }
}
