import Foundation
import ReactorCore
import ReactorExamples
import ReactorLiveRecording
import ReactorLiveServer
import ReactorTestSupport
import ReactorTracing
import Testing

/// A recorder in this process streaming to a server in this process, over loopback.
@MainActor
@Suite(.serialized) struct LiveStreamingTests {
  /// The Counter with its effect-free actions only (a limit of 0 turns `increase` into an
  /// alert), so the same script gives the same events without a serial executor.
  private static let script: [CounterReactor.Action] = [
    .decrease, .decrease, .increase, .decrease, .increase, .decrease,
  ]

  private func options() -> TraceOptions {
    TraceOptions(metadata: ["app": "tests"], overflow: .drop, clock: ContinuousClock())
  }

  @Test func aStreamIsKeptOnTheServerByteForByteAsTheFileRecorderWritesTheSameRun() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let server = try await RunningServer.start(directory: directory.file("streams"))
      defer { Task { await server.stop() } }

      // The same run twice, on a test clock so that times match: to a file, and live.
      let fileReactor = CounterReactor(limit: 0)
      let fileOptions = TraceOptions(
        metadata: ["app": "tests"], overflow: .drop, clock: FrozenClock())
      let file = try FileTraceRecorder(
        recording: fileReactor, to: directory.file("file.trace.jsonl"), options: fileOptions)
      for action in Self.script { fileReactor.send(action) }
      try await file.stop()

      let liveReactor = CounterReactor(limit: 0)
      let live = try LiveTraceRecorder(
        recording: liveReactor,
        live: LiveOptions(
          port: server.endpoint.port, token: server.endpoint.token, streamID: "same"),
        options: fileOptions)
      for action in Self.script { liveReactor.send(action) }
      await live.stop()

      #expect(live.status.lostEvents == 0)
      #expect(live.status.acknowledgedSequence == live.observedEventCount + 1)
      let kept = try Data(
        contentsOf: URL(fileURLWithPath: directory.file("streams/same.trace.jsonl")))
      let written = try Data(contentsOf: URL(fileURLWithPath: directory.file("file.trace.jsonl")))
      #expect(kept == written)
    }
  }

  @Test func anOutageThatFitsTheRingLosesNothing() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      // A port nobody listens on until the server starts on it.
      let first = try await RunningServer.start(directory: directory.file("streams"))
      let port = first.endpoint.port
      let token = first.endpoint.token
      await first.stop()

      let reactor = CounterReactor(limit: 0)
      let recorder = try LiveTraceRecorder(
        recording: reactor,
        live: LiveOptions(
          port: port, token: token, streamID: "outage", reconnectDelay: .milliseconds(5),
          maximumReconnectDelay: .milliseconds(20)),
        options: options())
      for _ in 0..<250 { reactor.send(.decrease) }
      // The sender has tried and failed while the server was down.
      try await eventually("a failed connection") { recorder.status.lastFailure != nil }

      let second = try await RunningServer.start(directory: directory.file("streams"), port: port)
      defer { Task { await second.stop() } }
      await recorder.stop()

      #expect(recorder.droppedEventCount == 0)
      #expect(recorder.status.lostEvents == 0)
      let trace = try Trace(contentsOf: directory.file("streams/outage.trace.jsonl"))
      #expect(trace.events.count == 1_000 + 1)
      #expect(trace.events.map(\.sequence) == Array(1...1_001))
      #expect(trace.warnings.isEmpty)
    }
  }

  @Test func anOutageLongerThanTheRingRecordsAGapAndTheKeptTraceStillReads() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let first = try await RunningServer.start(directory: directory.file("streams"))
      let port = first.endpoint.port
      let token = first.endpoint.token
      await first.stop()

      let reactor = CounterReactor(limit: 0)
      let recorder = try LiveTraceRecorder(
        recording: reactor,
        live: LiveOptions(
          port: port, token: token, streamID: "overflow", ringEvents: 16, queueBudget: 4 << 10,
          reconnectDelay: .milliseconds(5), maximumReconnectDelay: .milliseconds(20)),
        options: options())
      for _ in 0..<2_000 { reactor.send(.decrease) }
      #expect(recorder.droppedEventCount > 0)
      #expect(recorder.status.heldEvents <= 16)

      let second = try await RunningServer.start(directory: directory.file("streams"), port: port)
      defer { Task { await second.stop() } }
      await recorder.stop()

      #expect(recorder.status.lostEvents == 0)
      let trace = try Trace(contentsOf: directory.file("streams/overflow.trace.jsonl"))
      let gaps = trace.events.compactMap { event -> Int? in
        if case .gap(let gap) = event.kind { return gap.droppedEvents }
        return nil
      }
      #expect(!gaps.isEmpty)
      #expect(gaps.reduce(0, +) == recorder.droppedEventCount)
      #expect(trace.events.map(\.sequence) == Array(1...trace.events.count))
      #expect(trace.warnings.contains { "\($0)".contains("dropped") })
    }
  }

  @Test func aServerStartedAgainOnItsDirectoryResumesTheStreamWithEveryEventOnce() async throws {
    try await withoutSerialExecutorTests {
      let directory = try ScratchDirectory()
      defer { directory.remove() }
      let first = try await RunningServer.start(directory: directory.file("streams"))
      let port = first.endpoint.port

      let reactor = CounterReactor(limit: 0)
      let recorder = try LiveTraceRecorder(
        recording: reactor,
        live: LiveOptions(
          port: port, token: first.endpoint.token, streamID: "restart",
          reconnectDelay: .milliseconds(5), maximumReconnectDelay: .milliseconds(20)),
        options: options())
      for _ in 0..<50 { reactor.send(.decrease) }
      try await eventually("the first 200 events acknowledged") {
        recorder.status.acknowledgedSequence >= 200
      }
      await first.stop()
      for _ in 0..<50 { reactor.send(.decrease) }

      // The token kept in the directory lets the app in again.
      let second = try await RunningServer.start(directory: directory.file("streams"), port: port)
      defer { Task { await second.stop() } }
      #expect(second.endpoint.token == first.endpoint.token)
      await recorder.stop()

      #expect(recorder.status.lostEvents == 0)
      #expect(recorder.status.connections >= 2)
      let trace = try Trace(contentsOf: directory.file("streams/restart.trace.jsonl"))
      #expect(trace.events.map(\.sequence) == Array(1...401))
      #expect(trace.warnings.isEmpty)
    }
  }
}

/// A clock whose time never moves: the same run gives the same bytes.
struct FrozenClock: Clock {
  typealias Duration = Swift.Duration
  struct Instant: InstantProtocol {
    var offset: Swift.Duration
    func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }
  var now: Instant { Instant(offset: .zero) }
  var minimumResolution: Swift.Duration { .nanoseconds(1) }
  func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {}
}
