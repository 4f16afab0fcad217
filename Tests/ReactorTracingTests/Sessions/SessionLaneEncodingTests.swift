import Clocks
import Foundation
import ReactorCore
import ReactorExamples
import Synchronization
import Testing

@testable import ReactorTracing

/// Marks the main queue, where the main actor's jobs run (on Linux, on whichever thread
/// drains it, not always the process's first thread).
private let mainQueueKey = DispatchSpecificKey<Int>()

/// Where each encoding of a ``CountedState`` ran: `true` for off the main queue.
private let countedStateEncodings = Mutex<[Bool]>([])

/// A state that notes where each of its encodings runs.
private struct CountedState: Encodable, Sendable {
  var value = 0

  private enum CodingKeys: String, CodingKey {
    case value
  }

  func encode(to encoder: any Encoder) throws {
    let isOffTheMainQueue = DispatchQueue.getSpecific(key: mainQueueKey) == nil
    countedStateEncodings.withLock { $0.append(isOffTheMainQueue) }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
  }
}

private final class CountedReactor: Reactor {
  typealias State = CountedState

  enum Action: Codable, Sendable {
    case set(Int)
  }

  let initialState = CountedState()
  let runtime = Runtime()

  func reduce(state: CountedState, mutation: Action) -> CountedState {
    var state = state
    switch mutation {
    case .set(let value): state.value = value
    }
    return state
  }
}

/// A profile whose state nests values, an optional secret and an array.
private final class ProfileReactor: Reactor {
  enum Action: Codable, Sendable {
    case rename(String)
    case sign(token: String)
    case visit(Int)
  }

  struct State: Codable, Sendable {
    var name = "ann"
    var token: String?
    var visits: [Int] = []
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    switch mutation {
    case .rename(let name): state.name = name
    case .sign(let token): state.token = token
    case .visit(let page): state.visits.append(page)
    }
    return state
  }
}

/// A state of about 100 KB, one small part of which each mutation changes.
private final class HundredKilobyteReactor: Reactor {
  enum Action: Codable, Sendable {
    case bump
  }

  struct State: Codable, Sendable {
    var text = String(repeating: "x", count: 100_000)
    var count = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    state.count += 1
    return state
  }
}

/// A state that is not `Encodable`: a session reflects it on the main actor.
private final class DescribedReactor: Reactor {
  enum Action: Codable, Sendable {
    case tick
  }

  struct State: Sendable {
    var ticks = 0
  }

  let initialState = State()
  let runtime = Runtime()

  func reduce(state: State, mutation: Action) -> State {
    State(ticks: state.ticks + 1)
  }
}

/// The lines a session writer hands to a live stream, kept in memory.
private final class CollectedLines: TraceLineSink {
  private let lines = Mutex<[UInt8]>([])
  private let isFinished = Mutex(false)

  var bytes: [UInt8] { lines.withLock { $0 } }
  var finished: Bool { isFinished.withLock { $0 } }

  func write(_ lines: [UInt8]) { self.lines.withLock { $0.append(contentsOf: lines) } }
  func finish() { isFinished.withLock { $0 = true } }
}

extension TracingTests {
  /// Where a session lane encodes its events: a lane of plain data on the writer thread, any
  /// other on the main actor; the same bytes either way.
  @MainActor
  @Suite struct SessionLaneEncoding {
    private func options(
      queueBudget: Int = 32 << 20, redactions: [TraceRedaction] = []
    ) -> TraceOptions {
      TraceOptions(redactions: redactions, queueBudget: queueBudget, clock: TestClock())
    }

    @Test func aPlainDataLanesStatesAreEncodedOnTheWriterThreadNotTheMainActor() async throws {
      let directory = try TemporaryDirectory()
      let path = directory.file("plain.session.jsonl")
      DispatchQueue.main.setSpecific(key: mainQueueKey, value: 1)
      let recorder = try SessionRecorder(.file(path), options: options())
      let reactor = CountedReactor()
      let id = try #require(recorder.record(reactor))
      #expect(recorder.queuesValues(of: id))
      // The introduction's initial state, on the main actor.
      #expect(countedStateEncodings.withLock { $0 } == [false])

      recorder.holdWriter()
      for value in 1...5 { reactor.send(.set(value)) }
      // Numbered and queued: the main actor encoded none of the five states.
      #expect(countedStateEncodings.withLock { $0 } == [false])
      recorder.releaseWriter()
      try await recorder.close()
      #expect(countedStateEncodings.withLock { $0 } == [false] + Array(repeating: true, count: 5))

      // The same run recorded in memory, where every event is encoded on the main actor.
      let memory = try SessionRecorder(options: options())
      let twin = CountedReactor()
      memory.record(twin)
      for value in 1...5 { twin.send(.set(value)) }
      memory.stop()
      #expect(try contents(of: path) == memory.session.serialized)
    }

    @Test func lanesWhoseTypesMayHoldAReactorOrAreNotEncodableEncodeOnTheMainActor() {
      // The list's state holds its rows' reactors; a row and the edit screen hold values.
      #expect(!SessionRecorder.queuesValues(of: TaskAppListReactor.self))
      #expect(SessionRecorder.queuesValues(of: TaskCellReactor.self))
      #expect(SessionRecorder.queuesValues(of: TaskEditReactor.self))
      #expect(!SessionRecorder.queuesValues(of: DescribedReactor.self))
      #expect(SessionRecorder.queuesValues(of: ProfileReactor.self))
    }

    @Test func aLaneEncodesOnTheMainActorInMemoryAndOnTheWriterThreadToAFile() throws {
      let directory = try TemporaryDirectory()
      let memory = try SessionRecorder(options: options())
      let file = try SessionRecorder(
        .file(directory.file("lanes.session.jsonl")), options: options())
      let profile = ProfileReactor()
      let described = DescribedReactor()
      let inMemory = try #require(memory.record(ProfileReactor()))
      let queued = try #require(file.record(profile))
      let reflected = try #require(file.record(described))
      #expect(!memory.queuesValues(of: inMemory))
      #expect(file.queuesValues(of: queued))
      #expect(!file.queuesValues(of: reflected))
      memory.stop()
      file.stop()
    }

    @Test(arguments: [[], [TraceRedaction("state.token")]])
    func theRecordedStateOfAQueuingLaneIsTheOneTheMainActorWouldHaveEncoded(
      redactions: [TraceRedaction]
    ) async throws {
      let directory = try TemporaryDirectory()
      let file = try SessionRecorder(
        .file(directory.file("state.session.jsonl")), options: options(redactions: redactions))
      let memory = try SessionRecorder(options: options(redactions: redactions))
      let queued = ProfileReactor()
      let encoded = ProfileReactor()
      let queuedID = try #require(file.record(queued, name: "profile"))
      let encodedID = try #require(memory.record(encoded, name: "profile"))
      #expect(file.queuesValues(of: queuedID))
      #expect(file.recordedState(of: queuedID) == memory.recordedState(of: encodedID))
      #expect(file.recordedState(of: queuedID) != nil)

      // Held: the writer encodes nothing, yet scripts see every state at once.
      file.holdWriter()
      let actions: [ProfileReactor.Action] = [
        .rename("bea"), .sign(token: "secret"), .visit(3), .visit(4), .rename("cy"),
      ]
      for (index, action) in actions.enumerated() {
        queued.send(action)
        encoded.send(action)
        let state = file.recordedState(of: queuedID)
        #expect(state == memory.recordedState(of: encodedID))
        // The token is in the state from the second action on, unless redacted.
        #expect(state?.serializedString.contains("secret") == (redactions.isEmpty && index >= 1))
      }
      file.releaseWriter()
      try await file.close()
      memory.stop()
    }

    @Test func queuedStatesCountAgainstTheBudgetAndALiveWriterDropsRatherThanGrow()
      async throws
    {
      let sink = CollectedLines()
      let budget = 1 << 20
      let recorder = try SessionRecorder(
        sink: sink, name: "collected", options: options(queueBudget: budget))
      let reactor = HundredKilobyteReactor()
      let id = try #require(recorder.record(reactor))
      #expect(recorder.queuesValues(of: id))
      recorder.holdWriter()
      for _ in 0..<20 { reactor.send(.bump) }
      // Each queued state counts at six times its 100 KB: a few fit, the rest are dropped,
      // and what is queued stays within the budget and the one event admitted last.
      let stateCost = WriterHandshake.memoryPerStateByte * 100_020
      #expect(recorder.droppedEventCount > 0)
      #expect(recorder.peakQueuedBytes > budget / 2)
      #expect(recorder.peakQueuedBytes <= budget + stateCost + 4096)
      recorder.releaseWriter()
      try await recorder.close()
      #expect(sink.finished)

      // The stream reads back, every state checked, the gaps counting what was dropped.
      let session = try SessionTrace(bytes: sink.bytes)
      let gaps = session.events.compactMap { event -> Int? in
        guard case .gap(let gap) = event.kind else { return nil }
        return gap.droppedEvents
      }
      #expect(gaps.reduce(0, +) == recorder.droppedEventCount)
      // One warning per gap, saying the recorder dropped events there.
      #expect(session.warnings.count == gaps.count)
      #expect(session.events.map(\.sequence) == Array(1...session.events.count))
    }

    @Test func queuedStatesSharingTheirStorageCountAtWhatTheyHoldOfTheirOwn() async throws {
      // A budget that holds 8 of these states counted at six times their whole canonical
      // JSON (about 20 KB each), as a lane counted every queued state before; 1,000
      // mutations queued while the writer is held, by a live recorder, which drops rather
      // than wait. Each shares its 20 KB of notes with the state before.
      let json = try JSONValueEncoder().encode(SharedTextReactor.State()).serialized
      let budget = 8 * WriterHandshake.memoryPerStateByte * json.count
      let sink = CollectedLines()
      let recorder = try SessionRecorder(
        sink: sink, name: "collected", options: options(queueBudget: budget))
      let reactor = SharedTextReactor()
      let id = try #require(recorder.record(reactor))
      #expect(recorder.queuesValues(of: id))
      // Two mutations taken by the writer: it measures what the second holds of its own.
      reactor.send(.increase)
      reactor.send(.increase)
      await recorder.flush()
      recorder.holdWriter()
      for _ in 0..<1_000 { reactor.send(.increase) }
      #expect(recorder.droppedEventCount == 0)
      #expect(recorder.peakQueuedBytes <= budget)
      recorder.releaseWriter()
      try await recorder.close()

      #expect(recorder.droppedEventCount == 0)
      let session = try SessionTrace(bytes: sink.bytes)
      #expect(session.warnings.isEmpty)
      let mutations = session.events.filter {
        if case .reactor(_, .mutation) = $0.kind { true } else { false }
      }
      #expect(mutations.count == 1_002)
    }
  }
}
