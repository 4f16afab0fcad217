import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import ReactorTestSupport
import ReactorTracing
import Testing

extension TracingTests {
  /// A mutation that comes back through a stream the recorded reactor itself published to
  /// names the action and effect that published it (`publishedBy`); one published by anything
  /// else stays the stream's.
  @MainActor
  @Suite struct OwnStreamAttribution {
    /// Publishes on an app-wide relay synchronously in `mutate` and returns no mutation; the
    /// change comes back through the relay, which it merges.
    private final class EchoReactor: Reactor {
      enum Action: Codable, Sendable { case say(String) }
      enum Mutation: Codable, Sendable { case heard(String) }
      struct State: Codable, Sendable { var last = "" }
      let initialState = State()
      let runtime = Runtime()
      let relay: Relay<String>

      init(relay: Relay<String>) { self.relay = relay }

      func mutate(action: Action) -> Effect<Mutation> {
        switch action {
        case .say(let text):
          relay.accept(text)
          return .none
        }
      }

      func transform(mutation: Flow<Mutation>) -> Flow<Mutation> {
        mutation.merge(relay.flow(name: "echo").map { .heard($0) })
      }

      func reduce(state: State, mutation: Mutation) -> State {
        switch mutation {
        case .heard(let text): State(last: text)
        }
      }
    }

    /// The mutations of a trace: label, cause and publisher.
    private func mutations(of trace: Trace) -> [TraceEvent.Mutation] {
      trace.events.compactMap { event in
        if case .mutation(let mutation) = event.kind { mutation } else { nil }
      }
    }

    @Test func aMutationThroughTheReactorsOwnStreamNamesTheActionAndEffectThatPublishedIt()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let service = PostService(clock: clock, latency: .milliseconds(100))
        let button = LikeButtonReactor(post: 1, service: service)
        let recorder = try InMemoryTraceRecorder(
          recording: button, options: TraceOptions(clock: clock))
        button.send(.like)
        await clock.advance(by: .milliseconds(100))
        button.send(.unlike)
        await clock.advance(by: .milliseconds(100))
        // Another screen likes the post: not this button's doing.
        service.apply(.likeChanged(post: 1, isLiked: true))
        recorder.stop()

        let recorded = mutations(of: recorder.trace)
        #expect(recorded.map(\.label) == ["setLiked(true)", "setLiked(false)", "setLiked(true)"])
        #expect(recorded.map(\.cause) == Array(repeating: .stream("PostService.events"), count: 3))
        #expect(
          recorded.map(\.publisher) == [
            TraceEvent.Publisher(action: 1, effect: 1), TraceEvent.Publisher(action: 2, effect: 2),
            nil,
          ])
        #expect(
          recorded.map { $0.attributedCause() } == [
            .effect(1, action: 1), .effect(2, action: 2), .stream("PostService.events"),
          ])
      }
    }

    @Test func anElementPublishedSynchronouslyInMutateNamesTheActionWithoutAnEffect() throws {
      let relay = Relay<String>()
      let reactor = EchoReactor(relay: relay)
      let recorder = try InMemoryTraceRecorder(recording: reactor)
      reactor.send(.say("hello"))
      relay.accept("from outside")
      recorder.stop()
      let recorded = mutations(of: recorder.trace)
      #expect(recorded.map(\.publisher) == [TraceEvent.Publisher(action: 1), nil])
      #expect(recorded.map { $0.attributedCause() } == [.action(1), .stream("echo")])
    }

    @Test func anotherRecordedReactorsElementIsNotCreditedToTheReactorThatReceivesIt()
      async throws
    {
      try await withExclusiveMainSerialExecutor {
        let clock = TestClock()
        let service = PostService(clock: clock, latency: .milliseconds(100))
        let feedRow = LikeButtonReactor(post: 1, service: service)
        let postScreen = LikeButtonReactor(post: 1, service: service)
        let rowRecorder = try InMemoryTraceRecorder(
          recording: feedRow, options: TraceOptions(clock: clock))
        let screenRecorder = try InMemoryTraceRecorder(
          recording: postScreen, options: TraceOptions(clock: clock))
        #expect(feedRow.runtime.activityID < 0)
        #expect(postScreen.runtime.activityID < 0)
        #expect(feedRow.runtime.activityID != postScreen.runtime.activityID)
        // The post's own screen shows its button: its pipeline merges the service's events.
        _ = postScreen.state
        feedRow.send(.like)
        await clock.advance(by: .milliseconds(100))
        rowRecorder.stop()
        screenRecorder.stop()
        #expect(
          mutations(of: rowRecorder.trace).map(\.publisher) == [
            TraceEvent.Publisher(action: 1, effect: 1)
          ])
        let screen = mutations(of: screenRecorder.trace)
        #expect(screen.map(\.label) == ["setLiked(true)"])
        #expect(screen.map(\.publisher) == [nil])
      }
    }

    @Test func aFileRecordingWritesThePublisherAsTheInMemoryRecordingHoldsIt() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("likes.trace.jsonl")
      var traces: [Trace] = []
      for toFile in [false, true] {
        try await withExclusiveMainSerialExecutor {
          let clock = TestClock()
          let service = PostService(clock: clock, latency: .milliseconds(100))
          let button = LikeButtonReactor(post: 1, service: service)
          let options = TraceOptions(clock: clock)
          let recorder: any TraceRecorder =
            toFile
            ? try FileTraceRecorder(recording: button, to: path, options: options)
            : try InMemoryTraceRecorder(recording: button, options: options)
          button.send(.like)
          await clock.advance(by: .milliseconds(100))
          service.apply(.likeChanged(post: 1, isLiked: false))
          try await recorder.stop()
          #expect(!button.runtime.tracksOwnActivity)
          if let memory = recorder as? InMemoryTraceRecorder<LikeButtonReactor> {
            traces.append(memory.trace)
          }
        }
      }
      let fromFile = try Trace(contentsOf: path)
      #expect(fromFile.events == traces.first?.events)
      let text = String(decoding: try contents(of: path), as: UTF8.self)
      #expect(
        text.contains(
          #""cause":{"stream":"PostService.events","publishedBy":{"action":1,"effect":1}}"#))
      #expect(text.contains(#""cause":{"stream":"PostService.events"},"#))
    }

    @Test func aReactorNothingRecordsDoesNotTrackItsActivity() {
      let reactor = EchoReactor(relay: Relay())
      reactor.send(.say("unrecorded"))
      #expect(!reactor.runtime.tracksOwnActivity)
      #expect(reactor.runtime.activityID == 0)
      #expect(reactor.currentState.last == "unrecorded")
    }

    @Test func publishedByIsReadBackAndIgnoredBesideACauseThatIsNotAStream() throws {
      let bytes = try contents(
        of: SchemaValidation.repositoryRoot + "/Tests/Fixtures/likebutton.trace.jsonl")
      let trace = try Trace(bytes: bytes)
      #expect(trace.serialized == bytes)
      let publishers = mutations(of: trace).map(\.publisher)
      #expect(publishers.count == 6)
      #expect(publishers.first == TraceEvent.Publisher(action: 1, effect: 1))
      // The scripted event: another screen unliked the post.
      #expect(publishers.dropFirst().first == .some(nil))
      #expect(publishers.last == TraceEvent.Publisher(action: 5, effect: 5))

      // The same member beside a synchronous action's cause means nothing: it is ignored.
      let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
        of: #""stream":"PostService.events","publishedBy""#, with: #""action":1,"publishedBy""#)
      let edited = try Trace(bytes: Array(text.utf8))
      #expect(mutations(of: edited).first?.cause == .action(1))
      #expect(mutations(of: edited).first?.publisher == nil)
    }

    @Test func inASessionAFromNamingTheMutationsOwnReactorIsItsPublisher() {
      let mutation = TraceEvent.Mutation(
        id: 1, label: "heard", value: nil, cause: .stream("echo"), state: .snapshot(.null),
        stateHash: TraceHash(hex: "0000000000000000")!,
        from: TraceEvent.ReactorOrigin(reactor: 2, action: 5, effect: 3))
      #expect(mutation.attributedCause(reactor: 2) == .effect(3, action: 5))
      #expect(mutation.attributedCause(reactor: 1) == .stream("echo"))
      #expect(mutation.attributedCause() == .stream("echo"))
    }
  }
}
