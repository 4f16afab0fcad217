internal import Foundation
internal import ReactorReplay
internal import ReactorTracing

/// Records or verifies a golden trace and words the failure, for the assertions.
@MainActor
enum GoldenCheck {
  /// Records a fresh trace and writes it to `path` or compares it with the file there.
  /// - Returns: What happened, `nil` when it could not be checked, and the failure message,
  ///   `nil` when the fresh recording matched the golden file.
  static func run(
    _ path: String, isRecording: Bool?, record: () async throws -> Trace
  ) async -> (outcome: GoldenTrace.Outcome?, failure: String?) {
    let existed = FileManager.default.fileExists(atPath: path)
    var fresh: Trace?
    let outcome: GoldenTrace.Outcome
    do {
      outcome = try await GoldenTrace.verifyOrRecord(path: path, isRecording: isRecording) {
        let trace = try await record()
        fresh = trace
        return trace
      }
    } catch {
      return (nil, "\(path): the golden trace could not be checked: \(error)")
    }
    switch outcome {
    case .matched:
      return (outcome, nil)
    case .recorded:
      let why = existed ? "re-recording was asked for" : "the file was missing"
      return (
        outcome,
        "\(path): recorded the golden trace because \(why); a recording run always fails, "
          + "so run the test again without \(GoldenTrace.recordVariable) to verify it"
      )
    case .diverged(let divergence):
      return (outcome, report(divergence, path: path, header: fresh?.header))
    }
  }

  /// The failure for a divergence: the `seq`, the reason, both events and the state diff.
  private static func report(
    _ divergence: TraceDivergence, path: String, header: TraceHeader?
  ) -> String {
    var lines = [
      "\(path): the fresh recording differs from the golden trace at seq "
        + "\(divergence.sequence): \(divergence.reason)"
    ]
    if divergence.first != nil || divergence.second != nil {
      lines.append("golden: " + line(for: divergence.first, header: header))
      lines.append("fresh:  " + line(for: divergence.second, header: header))
    }
    if let stateDiff = divergence.stateDiff {
      lines.append("state (golden → fresh):")
      lines.append(stateDiff)
    }
    lines.append("(run with \(GoldenTrace.recordVariable)=1 to re-record)")
    return lines.joined(separator: "\n")
  }

  /// The event's JSON line as the trace file holds it, or a note that the trace had ended.
  private static func line(for event: TraceEvent?, header: TraceHeader?) -> String {
    guard let event else { return "(the trace has ended)" }
    guard let header else { return String(describing: event) }
    let text = String(decoding: Trace(header: header, events: [event]).serialized, as: UTF8.self)
    let lines = text.split(separator: "\n")
    return lines.count > 1 ? String(lines[1]) : String(describing: event)
  }
}
