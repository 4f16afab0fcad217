import Foundation
import ReactorReplay
import ReactorTestSupport
import ReactorTracing
import Testing

/// Issue 40's sessions and traces that lie: every reference a line makes names something that
/// occurred before it, in a window and after a gap too, or structural replay says so.
@Suite struct LyingInputTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The lines of a committed trace, each edited by `edit` (given the line's index, 0 for the
  /// header).
  static func lines(
    _ path: String, _ edit: (Int, String) -> String? = { $1 }
  ) throws -> [UInt8] {
    let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    let lines = text.split(separator: "\n").enumerated().compactMap { edit($0, String($1)) }
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  /// What structural replay finds in `bytes`.
  static func divergences(_ bytes: [UInt8]) throws -> [String] {
    let replay = StructuralReplay(
      reader: try SessionReader(bytes: bytes, name: "lie", verifyingStates: false))
    try replay.checkRemaining()
    return replay.divergences.map(\.description)
  }

  static func divergences(_ session: SessionTrace) throws -> [String] {
    try divergences(session.serialized)
  }

  /// The counter trace with `old` replaced by `new` on the line of event `sequence`.
  static func counter(_ sequence: Int, _ old: String, _ new: String) throws -> [UInt8] {
    try lines("Traces/counter.trace.jsonl") { index, line in
      index == sequence ? line.replacingOccurrences(of: old, with: new) : line
    }
  }

  @Test func theCommittedTracesAndSessionAreConsistent() throws {
    for path in [
      "Traces/counter.trace.jsonl", "Traces/taskapp.session.jsonl",
      "Tests/Fixtures/likebutton.trace.jsonl",
    ] {
      #expect(try Self.divergences(Self.lines(path)) == [], "\(path)")
    }
  }

  @Test func aMutationFromAnEffectAnotherActionStartedIsABrokenCause() throws {
    let lie = try Self.counter(
      10, #""cause":{"action":2,"effect":2}"#, #""cause":{"action":1,"effect":2}"#)
    #expect(
      try Self.divergences(lie) == [
        "line 11: event 10 is a mutation from effect 2, which action 2 started, not action 1"
      ])
  }

  @Test func anActionIdThatNeverOccurredIsNotNamedEvenBelowAHigherOne() throws {
    // Action 4 renumbered 6: its mutations name action 4, below 6, which never occurred.
    let lie = try Self.lines("Traces/counter.trace.jsonl") { index, line in
      switch index {
      case 15: line.replacingOccurrences(of: #""id":4"#, with: #""id":6"#)
      default: line
      }
    }
    #expect(
      try Self.divergences(lie).first
        == "line 17: event 16 is a mutation caused by action 4, which was not seen before it")
  }

  @Test func anActionIdThatDoesNotIncreaseIsABrokenCause() throws {
    let lie = try Self.counter(13, #""id":3"#, #""id":1"#)
    #expect(
      try Self.divergences(lie).first
        == "line 14: event 13 is action 1, which does not follow action 2 (ids increase)")
  }

  @Test func aTimeThatGoesBackIsFound() throws {
    let lie = try Self.counter(10, #""t":1000000000"#, #""t":0"#)
    #expect(
      try Self.divergences(lie) == [
        "line 11: event 10 is at t 0, before the event ahead of it (t 500000000): t never decreases"
      ])
  }

  @Test func aPublisherThatNeverActedIsABrokenCauseInATraceOfOneReactor() throws {
    let action = try Self.lines("Tests/Fixtures/likebutton.trace.jsonl") { index, line in
      index == 3
        ? line.replacingOccurrences(
          of: #""publishedBy":{"action":1"#, with: #""publishedBy":{"action":999"#) : line
    }
    #expect(
      try Self.divergences(action) == [
        "line 4: event 3 is published by action 999, effect 1, whose action 999 did not come "
          + "before it"
      ])
    let effect = try Self.lines("Tests/Fixtures/likebutton.trace.jsonl") { index, line in
      index == 3
        ? line.replacingOccurrences(of: #""effect":1}"#, with: #""effect":2}"#) : line
    }
    #expect(
      try Self.divergences(effect) == [
        "line 4: event 3 is published by action 1, effect 2, whose effect 2 did not start before it"
      ])
  }

  @Test func aWindowHeaderTurnsNoCheckOffInATraceOfOneReactor() throws {
    // A window from the first event: nothing came before it.
    let lie = try Self.lines("Traces/counter.trace.jsonl") { index, line in
      switch index {
      case 0:
        line.replacingOccurrences(
          of: #""metadata""#, with: #""window":{"firstSequence":1,"droppedEvents":0},"metadata""#)
      case 3: line.replacingOccurrences(of: #""effect":1}"#, with: #""effect":9}"#)
      default: line
      }
    }
    #expect(
      try Self.divergences(lie) == [
        "line 4: event 3 is a mutation from effect 9, which did not start before it"
      ])
  }

  @Test func afterAGapALostActionMayBeNamedButNotAFutureOne() throws {
    // Events 7 and 8 (action 2 and its effect's start) dropped in a gap.
    func gapped(cause: String) throws -> [UInt8] {
      try Self.lines("Traces/counter.trace.jsonl") { index, line in
        switch index {
        case 0: return line.replacingOccurrences(of: #""version":"1.1""#, with: #""version":"1.2""#)
        case 7: return #"{"seq":7,"t":500000000,"kind":"gap","dropped":2}"#
        case 8: return nil
        default:
          var edited = line.replacingOccurrences(
            of: #""seq":\d+"#, with: "\"seq\":\(index - 1)", options: .regularExpression)
          if index == 9 {
            edited = edited.replacingOccurrences(
              of: #""cause":{"action":2,"effect":2}"#, with: cause)
          }
          return index < 9 ? line : edited
        }
      }
    }
    #expect(try Self.divergences(gapped(cause: #""cause":{"action":2,"effect":2}"#)) == [])
    // Action 3 comes later, at event 12: naming it after the gap named the future.
    #expect(
      try Self.divergences(gapped(cause: #""cause":{"action":3,"effect":2}"#)) == [
        "line 9: event 8 names action 3 as one the input lost, but action 3 comes later, at "
          + "event 12: it names the future"
      ])
  }

  @Test func aWindowFromTheStartOfASessionTurnsNoCheckOff() throws {
    func windowed(_ session: SessionTrace) -> SessionTrace {
      var session = session
      session.header.version = TraceFormatVersion(major: 2, minor: 1)
      session.header.window = TraceHeader.Window(firstSequence: 1, droppedEvents: 0)
      return session
    }
    #expect(try Self.divergences(windowed(SessionFixture.session())) == [])
    #expect(
      try Self.divergences(
        windowed(SessionFixture.session(origin: .init(reactor: 99, action: 1, effect: 1))))
        == [
          "line 7: event 6 of reactor 1 comes from reactor 99, action 1, effect 1, which was not "
            + "introduced before it"
        ])
    #expect(
      try Self.divergences(
        windowed(SessionFixture.session(origin: .init(reactor: 2, action: 2, effect: 1))))
        == [
          "line 7: event 6 of reactor 1 comes from reactor 2, action 2, effect 1, whose action 2 "
            + "did not come before it"
        ])
    #expect(
      try Self.divergences(
        windowed(SessionFixture.session(origin: .init(reactor: 2, action: 1, effect: 3))))
        == [
          "line 7: event 6 of reactor 1 comes from reactor 2, action 1, effect 3, whose effect 3 "
            + "did not start before it"
        ])
    var laterParent = windowed(SessionFixture.session())
    try Self.edit(&laterParent, at: 6) { introduction in introduction.parent = 4 }
    #expect(
      try Self.divergences(laterParent) == [
        "line 8: event 7 introduces reactor 3 with parent 4, which was not introduced before it"
      ])
  }

  @Test func aWindowAcceptsWhatCameBeforeItButNotTheFuture() throws {
    // The window starts at event 4: reactors 1 and 2 were alive, action 1 of reactor 2 is lost.
    var window = SessionFixture.session()
    window.header.version = TraceFormatVersion(major: 2, minor: 1)
    window.header.window = TraceHeader.Window(firstSequence: 4, droppedEvents: 3)
    window.events.remove(at: 2)
    #expect(try Self.divergences(window) == [])
    // The list's stream mutation (event 6) credited to the list's action 1, which comes at
    // event 11: not lost before the window, but in its future.
    guard case .reactor(1, .mutation(var mutation)) = window.events[4].kind else {
      Issue.record("event 6 is not the list's mutation")
      return
    }
    mutation.cause = .action(1)
    mutation.from = nil
    window.events[4].kind = .reactor(1, .mutation(mutation))
    #expect(
      try Self.divergences(window) == [
        "line 6: event 6 names action 1 of reactor 1 as one the input lost, but "
          + "action 1 comes later, at event 11: it names the future"
      ])
  }

  /// Found by the session fuzz (issue 40): before a window, a reactor alive at its start
  /// names as its parent a reactor the input introduces just after it, as one released
  /// before the window; that reactor was alive, not released.
  @Test func aParentNamedAsReleasedBeforeTheWindowButIntroducedLaterIsTheFuture() throws {
    var window = SessionFixture.session()
    window.header.version = TraceFormatVersion(major: 2, minor: 1)
    window.header.window = TraceHeader.Window(firstSequence: 4, droppedEvents: 3)
    window.events.remove(at: 2)
    try Self.edit(&window, at: 0) { introduction in introduction.parent = 2 }
    #expect(
      try Self.divergences(window) == [
        "line 2: event 1 names reactor 2 as one released before the window, but reactor 2 is "
          + "introduced at event 2: it names the future"
      ])
  }

  @Test func aDuringThatIsNotTheParentsLatestEventIsFound() throws {
    var session = SessionFixture.session()
    // Event 5 is the edit screen's mutation, not an event of the list.
    try Self.edit(&session, at: 6) { $0.createdDuring = 5 }
    #expect(
      try Self.divergences(session) == [
        "line 8: event 7 introduces reactor 3 during event 5, which is not the latest event of "
          + "its parent 1 (event 6)"
      ])
  }

  /// Edits the introduction at `index` of `session`.
  static func edit(
    _ session: inout SessionTrace, at index: Int, _ body: (inout ReactorIntroduction) -> Void
  ) throws {
    guard case .introduced(var introduction) = session.events[index].kind else {
      Issue.record("event \(index + 1) is no introduction")
      return
    }
    body(&introduction)
    session.events[index].kind = .introduced(introduction)
  }
}
