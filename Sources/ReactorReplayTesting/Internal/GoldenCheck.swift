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
    let isRecordingFromEnvironment =
      isRecording == nil
      && ProcessInfo.processInfo.environment[GoldenTrace.recordVariable] == "1"
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
      let why: String
      let again: String
      if !existed {
        why = "the file was missing"
        again = "run the test again to verify it"
      } else if isRecordingFromEnvironment {
        why = "\(GoldenTrace.recordVariable)=1 is set"
        again = "run the test again without \(GoldenTrace.recordVariable)=1 to verify it"
      } else {
        why = "the test passes isRecording: true"
        again = "remove isRecording: true and run the test again to verify it"
      }
      return (
        outcome,
        "\(path): recorded the golden trace because \(why); a recording run always fails, "
          + "so \(again)"
      )
    case .diverged(let divergence):
      // Read again only here: a diverging run leaves the golden file as it was.
      return (
        outcome,
        ([report(divergence, path: path, header: fresh?.header)]
          + goldenWarnings(path).map { "\(path): warning: \($0)" }).joined(separator: "\n")
      )
    }
  }

  /// What a reader notices about the golden file without failing: a torn or unfinished
  /// trace; empty when it cannot be read (verifying then says why).
  private static func goldenWarnings(_ path: String) -> [TraceWarning] {
    guard let reader = try? TraceReader(path: path) else { return [] }
    while (try? reader.next()) != nil {}
    return reader.warnings
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
    lines.append(GoldenTrace.howToRerecord)
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
