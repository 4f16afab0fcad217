import Foundation
import ReactorCore
import ReactorExamples
import ReactorLiveRecording
import ReactorLiveServer
import ReactorTestSupport
import ReactorTracing
import Testing

/// A whole session (several reactors in one trace) recorded in this process and streamed to a
/// server in this process, over loopback.
@MainActor
@Suite(.serialized) struct LiveSessionStreamingTests {
  /// Two counters with their effect-free actions only (a limit of 0 turns `increase` into an
  /// alert), a third one created, used and released in the middle: every kind of session
  /// line but a cause across reactors, the same events on every run.
  private static func run(_ record: (CounterReactor, String) -> Void) {
    let first = CounterReactor(limit: 0)
    let second = CounterReactor(limit: 0)
    record(first, "first")
    record(second, "second")
    first.send(.decrease)
    second.send(.increase)
    do {
      let passing = CounterReactor(limit: 0)
      record(passing, "passing")
      passing.send(.decrease)
    }
    for _ in 0..<3 {
      first.send(.decrease)
      second.send(.decrease)
    }
  }

  private static func live(
    _ server: RunningServer, stream: String, port: Int? = nil, token: String? = nil,
    ringEvents: Int = 10_000, queueBudget: Int = 2 << 20
  ) -> LiveOptions {
    LiveOptions(
      port: port ?? server.endpoint.port, token: token ?? server.endpoint.token,
      streamID: stream, ringEvents: ringEvents, queueBudget: queueBudget,
      reconnectDelay: .milliseconds(5), maximumReconnectDelay: .milliseconds(20))
  }

  @Test func aSessionIsKeptOnTheServerByteForByteAsTheFileSessionRecorderWritesIt() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.file("streams"))
      defer { Task { await server.stop() } }
      let options = TraceOptions(metadata: ["app": "tests"], clock: FrozenClock())

      let file = try SessionRecorder(.file(directory.file("file.session.jsonl")), options: options)
      Self.run { file.record($0, name: $1) }
      try await file.close()

      let live = try LiveSessionRecorder(
        live: Self.live(server, stream: "session"), options: options)
      Self.run { live.record($0, name: $1) }
      await live.stop()

      #expect(live.status.lostEvents == 0)
      #expect(live.droppedEventCount == 0)
      let kept = try Data(
        contentsOf: URL(fileURLWithPath: directory.file("streams/session.trace.jsonl")))
      let written = try Data(
        contentsOf: URL(fileURLWithPath: directory.file("file.session.jsonl")))
      #expect(kept == written)
      let session = try SessionTrace(contentsOf: directory.file("streams/session.trace.jsonl"))
      #expect(session.reactors.map(\.name) == ["first", "second", "passing"])
      #expect(session.warnings.isEmpty)
      #expect(live.status.acknowledgedSequence == session.events.count)
    }
  }

  @Test func anOutageThatFitsTheRingLosesNoEventOfTheSession() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let first = try await RunningServer.start(directory: directory.file("streams"))
      let port = first.endpoint.port
      let token = first.endpoint.token
      await first.stop()

      let recorder = try LiveSessionRecorder(
        live: Self.live(first, stream: "outage", port: port, token: token),
        options: TraceOptions(clock: ContinuousClock()))
      let counter = CounterReactor(limit: 0)
      recorder.record(counter, name: "counter")
      for _ in 0..<250 { counter.send(.decrease) }
      try await eventually("a failed connection") { recorder.status.lastFailure != nil }

      let second = try await RunningServer.start(directory: directory.file("streams"), port: port)
      defer { Task { await second.stop() } }
      await recorder.stop()

      #expect(recorder.droppedEventCount == 0)
      #expect(recorder.status.lostEvents == 0)
      let session = try SessionTrace(contentsOf: directory.file("streams/outage.trace.jsonl"))
      // The introduction, 1,000 events of the counter, the end line.
      #expect(session.events.map(\.sequence) == Array(1...1_002))
      #expect(session.warnings.isEmpty)
    }
  }

  @Test func anOutageLongerThanTheRingRecordsGapsAndEveryReactorsStateStillChecks() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let first = try await RunningServer.start(directory: directory.file("streams"))
      let port = first.endpoint.port
      let token = first.endpoint.token
      await first.stop()

      let recorder = try LiveSessionRecorder(
        live: Self.live(
          first, stream: "overflow", port: port, token: token, ringEvents: 16,
          queueBudget: 4 << 10),
        options: TraceOptions(clock: ContinuousClock()))
      let counters = [CounterReactor(limit: 0), CounterReactor(limit: 0)]
      for (index, counter) in counters.enumerated() {
        recorder.record(counter, name: "counter\(index)")
      }
      for index in 0..<2_000 { counters[index % 2].send(.decrease) }
      #expect(recorder.droppedEventCount > 0)
      #expect(recorder.status.heldEvents <= 16)

      let second = try await RunningServer.start(directory: directory.file("streams"), port: port)
      defer { Task { await second.stop() } }
      await recorder.stop()

      #expect(recorder.status.lostEvents == 0)
      let path = directory.file("streams/overflow.trace.jsonl")
      let session = try SessionTrace(contentsOf: path)
      let gaps = session.events.compactMap { event -> Int? in
        if case .gap(let gap) = event.kind { return gap.droppedEvents }
        return nil
      }
      #expect(!gaps.isEmpty)
      #expect(gaps.reduce(0, +) == recorder.droppedEventCount)
      #expect(session.events.map(\.sequence) == Array(1...session.events.count))
      #expect(session.reactors.map(\.name) == ["counter0", "counter1"])
      // Each mutation after a gap still rebuilds its reactor's recorded state: the reader
      // checks every state against its hash (and throws on a mismatch), and reports each gap.
      let reader = try SessionReader(path: path)
      var mutations = 0
      while let event = try reader.next() {
        if case .reactor(_, .mutation) = event.kind { mutations += 1 }
      }
      #expect(mutations > 0)
      #expect(reader.warnings.contains { "\($0)".contains("dropped") })
      guard case .end(let end) = session.events.last?.kind else {
        Issue.record("the session has no end line")
        return
      }
      #expect(end.droppedEvents == recorder.droppedEventCount)
      #expect(end.observedEvents == recorder.observedEventCount)
    }
  }
}
