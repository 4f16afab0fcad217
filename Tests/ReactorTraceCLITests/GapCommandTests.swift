import Foundation
import ReactorTracing
import Testing

@Suite("Traces with a gap, end to end")
struct GapCommandTests {
  /// The Counter sample with events 7 to 9 dropped, as a recorder with the drop policy
  /// writes a gap: the gap line, then the next mutation stored as a snapshot.
  private func counterWithGap(in scratch: borrowing ScratchDirectory) throws -> String {
    let reader = try TraceReader(path: repositoryRoot + "/Traces/counter.trace.jsonl")
    var events: [TraceEvent] = []
    var states: [TraceHeader.State] = []
    while let event = try reader.next() {
      events.append(event)
      states.append(reader.currentState)
    }
    var kept = Array(events[..<6])
    kept.append(TraceEvent(sequence: 0, time: events[6].time, kind: .gap(.init(droppedEvents: 3))))
    var needsSnapshot = true
    for index in 9..<events.count {
      var event = events[index]
      if needsSnapshot, case .mutation(var mutation) = event.kind,
        case .json(let state) = states[index]
      {
        mutation.state = .snapshot(state)
        event.kind = .mutation(mutation)
        needsSnapshot = false
      }
      if case .end(var end) = event.kind {
        end.droppedEvents += 3
        event.kind = .end(end)
      }
      kept.append(event)
    }
    for index in kept.indices { kept[index].sequence = index + 1 }
    var header = reader.header
    header.version = TraceFormatVersion(major: 1, minor: 2)
    let path = scratch.file("gap.trace.jsonl")
    try Trace(header: header, events: kept).write(to: path)
    return path
  }

  @Test func replayAndRenderReportTheGapAsAnIncompleteTraceNotADivergence() throws {
    let scratch = try ScratchDirectory()
    let gap = try counterWithGap(in: scratch)
    let warning = "reactor-trace: warning: \(gap): the recorder dropped 3 events at line 8"
    for mode in ["reduce", "mutate", "structural"] {
      let result = try runReactorTrace(["replay", gap, "--mode", mode])
      #expect(result.exitCode == 0, "\(mode): \(result.standardOutput)\(result.standardError)")
      #expect(result.standardError.hasPrefix(warning), "\(mode): \(result.standardError)")
      #expect(result.standardOutput.hasPrefix("match (incomplete trace: "), "\(mode)")
      let strict = try runReactorTrace(["replay", gap, "--mode", mode, "--strict"])
      #expect(strict.exitCode == 3, "\(mode)")
    }
    for kind in ["transitions", "timeline"] {
      let output = scratch.file("\(kind).svg")
      let result = try runReactorTrace(["render", kind, gap, "-o", output])
      #expect(result.exitCode == 0, "\(kind): \(result.standardError)")
      #expect(result.standardError.hasPrefix(warning), "\(kind): \(result.standardError)")
    }
  }
}
