import Foundation
import ReactorJSON
import ReactorTracing
import Testing

extension TracingTests {
  /// The `jump` event (format 1.4 and 2.2, issue 43): its line, and the state readers
  /// rebuild from it.
  @Suite struct JumpReading {
    /// A trace of the counter: its header, then `lines`, then an end line.
    private func trace(_ lines: [String]) throws -> [UInt8] {
      let header = try String(
        contentsOfFile: repositoryRoot + "/Traces/counter.trace.jsonl", encoding: .utf8
      )
      .split(separator: "\n")[0]
      let end =
        #"{"seq":\#(lines.count + 1),"t":0,"kind":"end","observed":\#(lines.count),"dropped":0}"#
      return Array(([String(header)] + lines + [end]).joined(separator: "\n").utf8) + [0x0A]
    }

    private let state: JSONValue = [
      "alertMessage": ["value": .null, "valueUpdatedCount": 0], "isLoading": false, "value": 7,
    ]

    @Test func aJumpLineReadsBackAsTheEventItWasWrittenFrom() throws {
      let jump = TraceEvent(
        sequence: 3, time: .milliseconds(5),
        kind: .jump(
          TraceEvent.Jump(
            target: 2, external: "client", state: .json(state),
            stateHash: TraceHeader.State.json(state).hash)))
      let line = String(decoding: jump.serializedLine, as: UTF8.self)
      #expect(
        line.hasPrefix(
          #"{"seq":3,"t":5000000,"kind":"jump","to":2,"external":"client","snapshot":{"#))
      let read = try Trace(
        bytes: trace([line.replacingOccurrences(of: #""seq":3"#, with: #""seq":1"#)]))
      guard case .jump(let decoded) = read.events.first?.kind else {
        Issue.record("no jump read")
        return
      }
      #expect(decoded.target == 2)
      #expect(decoded.external == "client")
      #expect(decoded.state == .json(state))
    }

    @Test func theReaderRebuildsTheStateFromAJumpAndChecksItsHash() throws {
      let hash = TraceHeader.State.json(state).hash
      let good =
        #"{"seq":1,"t":0,"kind":"jump","to":0,"external":"page","snapshot":\#(state.serializedString),"hash":"\#(hash)"}"#
      let reader = try TraceReader(bytes: try trace([good]), name: "jump")
      _ = try reader.next()
      #expect(reader.currentState == .json(state))

      let bad = good.replacingOccurrences(of: #""value":7"#, with: #""value":8"#)
      #expect(throws: TraceReadError.self) { _ = try Trace(bytes: try trace([bad])) }
      let noState = #"{"seq":1,"t":0,"kind":"jump","to":0,"hash":"\#(hash)"}"#
      #expect(throws: TraceReadError.self) { _ = try Trace(bytes: try trace([noState])) }
    }
  }
}
