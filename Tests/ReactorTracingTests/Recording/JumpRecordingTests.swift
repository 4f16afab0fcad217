import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorJSON
import Testing

@testable import ReactorTracing

/// A reactor of plain data whose state is large enough that a mutation is stored as a diff.
private final class NotebookReactor: Reactor {
  enum Action: Codable, Sendable {
    case set(Int)
  }

  struct State: Codable, Equatable, Sendable {
    var value = 0
    var notes = (1...8).map { "a note long enough to make a diff the smaller choice, \($0)" }
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .set(let value): state.value = value
    }
    return state
  }
}

extension TracingTests {
  /// Recording a jump (issue 43): the state whole, and the next mutation's state whole too,
  /// so that a reader that skips the unknown kind still rebuilds every state.
  @MainActor
  @Suite struct JumpRecording {
    /// The lines of `bytes`, the jump's kind renamed to one no reader knows: what a reader of
    /// the previous version sees.
    private func asUnknownKind(_ bytes: [UInt8]) -> [UInt8] {
      Array(
        String(decoding: bytes, as: UTF8.self)
          .replacingOccurrences(of: #""kind":"jump""#, with: #""kind":"fromTheFuture""#).utf8)
    }

    @Test func aJumpSetsTheStateLaterActionsRunFromAndIsRecordedWhole() async throws {
      let clock = TestClock()
      let reactor = CounterReactor(clock: clock, limit: 10)
      var options = TraceOptions(clock: clock)
      options.recordsJumps = true
      let recorder = try InMemoryTraceRecorder(recording: reactor, options: options)
      reactor.send(.increase)
      await clock.advance(by: .milliseconds(500))
      await recorder.waitUntilIdle()
      reactor.send(.increase)
      await clock.advance(by: .milliseconds(500))
      await recorder.waitUntilIdle()
      #expect(reactor.currentState.value == 2)

      // The state after the first increase's last mutation, as the recording holds it.
      let before = recorder.trace
      let reader = try TraceReader(bytes: before.serialized, name: "before")
      var target = 0
      var recorded: JSONValue?
      while let event = try reader.next() {
        if case .mutation = event.kind, case .json(let state) = reader.currentState,
          state["value"] == 1
        {
          target = event.sequence
          recorded = state
        }
      }
      let state = try JSONValueDecoder().decode(
        CounterReactor.State.self, from: try #require(recorded))
      reactor.jump(to: state, event: target, from: "client")
      #expect(reactor.currentState.value == 1)
      reactor.send(.increase)
      await clock.advance(by: .milliseconds(500))
      await recorder.waitUntilIdle()
      #expect(reactor.currentState.value == 2, "\(recorder.trace.events.map(\.summary))")
      recorder.stop()

      let trace = recorder.trace
      #expect(trace.header.version == TraceHeader.jumpVersion)
      let index = try #require(
        trace.events.firstIndex {
          if case .jump = $0.kind { true } else { false }
        })
      guard case .jump(let jump) = trace.events[index].kind else { return }
      #expect(jump.target == target)
      #expect(jump.external == "client")
      #expect(jump.state == .json(try #require(recorded)))
      let next = try #require(
        trace.events[(index + 1)...].lazy.compactMap {
          if case .mutation(let mutation) = $0.kind { mutation } else { nil }
        }.first)
      guard case .snapshot = next.state else {
        Issue.record("the first mutation after a jump is not a snapshot: \(next.state)")
        return
      }

      // The lines satisfy the format's JSON Schema, the jump's included.
      let validation = try TracingTests.SchemaValidation()
      #expect(
        validation.validateTrace(trace.serialized, named: "jump")
          == trace.events.count + 1)
      // This reader rebuilds and checks every state; one that skips the kind does too.
      let read = try Trace(bytes: trace.serialized)
      #expect(read.events == trace.events)
      let older = try Trace(bytes: asUnknownKind(trace.serialized))
      #expect(older.events.count == trace.events.count - 1)
      #expect(older.warnings.contains { "\($0)".contains("fromTheFuture") })
    }

    @Test func aRecordingThatTakesNoJumpsStaysTheVersionItWas() throws {
      let reactor = NotebookReactor()
      let recorder = try InMemoryTraceRecorder(
        recording: reactor, options: TraceOptions(clock: TestClock()))
      reactor.send(.set(1))
      recorder.stop()
      #expect(recorder.trace.header.version == TraceFormatVersion(major: 1, minor: 1))
    }

    @Test func aSessionsActionOrJumpThatDoesNotDecodeIsRefusedWithCodablesReason() throws {
      var options = TraceOptions(clock: TestClock())
      options.recordsJumps = true
      let recorder = try SessionRecorder(options: options)
      let reactor = NotebookReactor()
      let id = try #require(recorder.record(reactor))
      reactor.send(.set(1))
      // Codable's own words, not a reason of ours.
      do {
        try recorder.jump(reactor: id, to: ["value": "one"], event: 1, from: "page")
        Issue.record("the state decoded")
      } catch {
        guard case .undecodableState(id, let reason) = error else {
          Issue.record("\(error)")
          return
        }
        #expect(!reason.isEmpty && !reason.contains("of its type"), "\(reason)")
      }
      do {
        try recorder.send(["nope": 1], to: id, from: "client")
        Issue.record("the action decoded")
      } catch {
        guard case .undecodable(id, let reason) = error else {
          Issue.record("\(error)")
          return
        }
        #expect(!reason.isEmpty && !reason.contains("of its type"), "\(reason)")
      }
      #expect(reactor.currentState.value == 1)
      withExtendedLifetime(reactor) {}
      recorder.stop()
    }

    @Test func aSessionLanesJumpIsRecordedTheSameOnTheMainActorAndOnTheWriterThread()
      async throws
    {
      let directory = try TemporaryDirectory()
      let path = directory.file("jump.session.jsonl")
      var options = TraceOptions(clock: TestClock())
      options.recordsJumps = true
      let file = try SessionRecorder(.file(path), options: options)
      let memory = try SessionRecorder(options: options)
      for recorder in [file, memory] {
        let reactor = NotebookReactor()
        let id = try #require(recorder.record(reactor))
        #expect(recorder.queuesValues(of: id) == (recorder === file))
        reactor.send(.set(1))
        reactor.send(.set(2))
        var state = NotebookReactor.State()
        state.value = 1
        try recorder.jump(
          reactor: id, to: try JSONValueEncoder().encode(state), event: 2, from: "page")
        #expect(reactor.currentState.value == 1)
        reactor.send(.set(5))
        #expect(throws: SessionSendError.self) {
          try recorder.jump(reactor: id, to: ["value": "one"], event: 2, from: "page")
        }
        withExtendedLifetime(reactor) {}
      }
      try await file.close()
      memory.stop()
      let bytes = try contents(of: path)
      #expect(bytes == memory.session.serialized)
      let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
      #expect(lines[0].contains(#""version":"2.2""#))
      let jumpLine = try #require(lines.firstIndex { $0.contains(#""kind":"jump""#) })
      #expect(lines[jumpLine].contains(#""to":2,"external":"page","snapshot":{"#))
      let nextMutation = try #require(
        lines[(jumpLine + 1)...].first { $0.contains(#""kind":"mutation""#) })
      #expect(nextMutation.contains(#""snapshot":"#))
      #expect(
        try TracingTests.SchemaValidation().validateTrace(bytes, named: "jump session")
          == lines.count)
      // Every state rebuilds and verifies, with the jump read or skipped.
      let session = try SessionTrace(bytes: bytes)
      let skipped = try SessionTrace(bytes: asUnknownKind(bytes))
      #expect(skipped.events.count == session.events.count - 1)
    }
  }
}
