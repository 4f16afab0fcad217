import Foundation
import ReactorTestSupport
import ReactorTracing
import Testing

/// Session traces (format 2.0): written and read back, refused by a reader of traces of one
/// reactor, and traces of one reactor read as sessions of one reactor.
@Suite struct SessionReading {
  private func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  private func bytes(_ lines: [String]) -> [UInt8] {
    Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  private func error(reading bytes: [UInt8]) -> String? {
    do {
      _ = try SessionTrace(bytes: bytes)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aSessionReadsBackAsTheEventsItWasWrittenFrom() throws {
    let session = SessionFixture.session()
    let read = try SessionTrace(bytes: session.serialized)
    #expect(read.header == session.header)
    #expect(read.events == session.events)
    #expect(read.warnings.isEmpty)
    #expect(read.serialized == session.serialized)
    #expect(read.reactors.map(\.name) == ["list", "edit", "cell"])
  }

  @Test func everyEventOfAReactorNamesItAfterItsTime() throws {
    let text = lines(SessionFixture.session().serialized)
    #expect(text[0].hasPrefix(#"{"format":"reactor-trace","version":"2.0","#))
    #expect(!text[0].contains(#""reactor""#))
    #expect(
      text[1].hasPrefix(
        #"{"seq":1,"t":0,"reactor":1,"kind":"reactor","type":"TaskApp.ListReactor","name":"list","#)
    )
    #expect(
      text[6].contains(
        #""cause":{"stream":"taskService","from":{"action":1,"effect":1,"reactor":2}}"#))
    #expect(
      text[7].contains(#""reactor":3,"kind":"reactor""#)
        && text[7].contains(#""parent":1,"during":6"#))
    #expect(text[11].contains(#""source":"sent","from":{"action":1,"reactor":3}"#))
    #expect(text[13] == #"{"seq":13,"t":120000000,"reactor":3,"kind":"release"}"#)
    #expect(text[14] == #"{"seq":14,"t":130000000,"kind":"end","observed":13,"dropped":0}"#)
  }

  @Test func aReaderOfTracesOfOneReactorRefusesASessionWithOneLine() {
    #expect(throws: TraceReadError.self) {
      try TraceReader(bytes: SessionFixture.session().serialized)
    }
    do {
      _ = try TraceReader(bytes: SessionFixture.session().serialized, name: "app.session.jsonl")
    } catch {
      #expect(
        error.description
          == "'app.session.jsonl' is a session trace (format 2.0, several reactors in one file), "
          + "not the trace of one reactor; read it as a session (SessionReader)")
    }
  }

  @Test func everyCommittedTraceReadsAsASessionOfOneReactorWhoseLaneIsTheTraceByteForByte()
    throws
  {
    let directory = repositoryRoot + "/Traces/"
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".trace.jsonl") }.sorted()
    #expect(names.count >= 4)
    for name in names {
      let original = Array(try Data(contentsOf: URL(fileURLWithPath: directory + name)))
      let trace = try Trace(bytes: original)
      let session = try SessionTrace(contentsOf: directory + name)
      #expect(session.header.version.major == 1, "\(name)")
      #expect(session.reactors == [ReactorIntroduction(trace.header)], "\(name)")
      #expect(session.events.count == trace.events.count + 1, "\(name)")
      #expect(session.events.dropFirst().allSatisfy { $0.reactor == 1 || $0.reactor == nil })
      #expect(session.lane(of: 1)?.serialized == original, "\(name)")
      #expect(SessionTrace(trace).events == session.events, "\(name)")
      // Written as a session, it reads back as the same reactor's lane.
      let rewritten = try SessionTrace(bytes: session.serialized)
      #expect(rewritten.header.version == SessionHeader.currentVersion)
      #expect(rewritten.lane(of: 1)?.events.count == trace.events.count, "\(name)")
    }
  }

  @Test func linesOfTheSessionRecordersLayoutReadAsTheSameEventsAsLinesLaidOutOtherwise()
    throws
  {
    // The reader takes a fast path for action and mutation lines laid out exactly as the
    // recorder writes them; a space after the opening brace sends every line the general way.
    // The committed traces, written as sessions, add diffs and snapshots of every shape.
    let directory = repositoryRoot + "/Traces/"
    var sessions = [
      Array(try Data(contentsOf: URL(fileURLWithPath: directory + "taskapp.session.jsonl")))
    ]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    where name.hasSuffix(".trace.jsonl") {
      sessions.append(try SessionTrace(contentsOf: directory + name).serialized)
    }
    for original in sessions {
      var spaced = lines(original)
      for index in spaced.indices.dropFirst() {
        spaced[index].insert(" ", at: spaced[index].index(after: spaced[index].startIndex))
      }
      let fast = try SessionTrace(bytes: original)
      let general = try SessionTrace(bytes: bytes(spaced))
      #expect(fast.events.count > 10)
      #expect(fast.events == general.events)
      #expect(fast.warnings == general.warnings)
    }
    // A line of the recorder's layout but a reactor id of 0 fails as the general way fails.
    var text = lines(SessionFixture.session().serialized)
    let action = try #require(text.firstIndex { $0.contains(#""kind":"action""#) })
    let reactor = try #require(text[action].firstRange(of: /"reactor":\d+/))
    text[action].replaceSubrange(reactor, with: #""reactor":0"#)
    var spacedText = text
    spacedText[action].insert(
      " ", at: spacedText[action].index(after: spacedText[action].startIndex))
    #expect(error(reading: bytes(text)) != nil)
    #expect(error(reading: bytes(text)) == error(reading: bytes(spacedText)))
  }

  @Test func aLaneIsTheTraceOfItsReactorAloneEndingAtItsRelease() throws {
    let session = SessionFixture.session()
    let cell = try #require(session.lane(of: 3))
    #expect(cell.header.reactor == "TaskApp.CellReactor")
    #expect(cell.events.map(\.sequence) == [10, 13])
    #expect(cell.events.last?.kind == .end(TraceEvent.End(observedEvents: 1, droppedEvents: 0)))
    let list = try #require(session.lane(of: 1))
    #expect(list.events.map(\.sequence) == [6, 11, 12, 14])
    // A lane reads as a trace of one reactor, every state checked against its hash.
    #expect(try Trace(bytes: list.serialized).events.count == 4)
    #expect(session.lane(of: 9) == nil)
  }

  @Test func anEventOfAReactorThatIsNotAliveIsAMalformedLine() {
    var text = lines(SessionFixture.session().serialized)
    var early = text
    early.swapAt(7, 10)
    #expect(
      error(reading: bytes(early))?.hasPrefix(
        "session:8: malformed event: an event of reactor 3, which was not introduced before it")
        == true)
    text.insert(
      #"{"seq":14,"t":1,"reactor":3,"kind":"action","id":2,"label":"x","source":"sent"}"#, at: 14)
    #expect(
      error(reading: bytes(text))
        == "session:15: malformed event: an event of reactor 3, which was released before it")
  }

  @Test func aReactorIntroducedTwiceOrDuringALaterEventIsAMalformedLine() {
    var text = lines(SessionFixture.session().serialized)
    text[2] = text[2].replacingOccurrences(of: #""reactor":2"#, with: #""reactor":1"#)
    #expect(
      error(reading: bytes(text))
        == "session:3: malformed event: reactor 1 is introduced a second time")
    var later = lines(SessionFixture.session().serialized)
    later[7] = later[7].replacingOccurrences(of: #""during":6"#, with: #""during":7"#)
    #expect(
      error(reading: bytes(later))
        == "session:8: malformed event: 'during' must name an earlier event, found 7")
  }

  @Test func anEditedStateOfOneReactorFailsAtItsEvent() {
    var text = lines(SessionFixture.session().serialized)
    text[6] = text[6].replacingOccurrences(
      of: #""snapshot":{"titles":["milk"]}"#, with: #""snapshot":{"titles":["eggs"]}"#)
    #expect(
      error(reading: bytes(text))?.hasPrefix(
        "session:7: the state after event 6 does not match its hash") == true)
  }

  @Test func aSessionCutOffWarnsAndNamesTheEffectsStillRunningInTheirReactors() throws {
    var text = lines(SessionFixture.session().serialized)
    text.removeSubrange(8...)
    text.append(#"{"seq":8,"t":1,"reactor":2,"kind":"mutat"#)
    var cut = bytes(text)
    cut.removeLast()
    let session = try SessionTrace(bytes: cut)
    #expect(session.events.count == 7)
    #expect(
      session.warnings == [
        .tornLastLine(line: 9, byteCount: 40),
        .unfinishedSessionEffects(
          line: 8, time: .milliseconds(60),
          effects: [
            SessionEvent.RunningEffect(
              reactor: 2, start: TraceEvent.EffectStart(effect: 1, action: 1, name: "save"))
          ]),
      ])
    #expect(session.warnings[1].description.hasSuffix("(effect 1 'save' of action 1 of reactor 2)"))
  }

  @Test func aNewerSessionVersionIsRefusedAndUnknownKindsAreSkipped() throws {
    var text = lines(SessionFixture.session().serialized)
    text[0] = text[0].replacingOccurrences(of: #""version":"2.0""#, with: #""version":"2.3""#)
    text.insert(#"{"seq":4,"t":1,"kind":"bookmark","note":"new in 2.3"}"#, at: 4)
    let session = try SessionTrace(bytes: bytes(text))
    #expect(session.events.count == 14)
    #expect(session.warnings == [.unknownEventKind("bookmark", firstLine: 5)])
    text[0] = text[0].replacingOccurrences(of: #""version":"2.3""#, with: #""version":"3.0""#)
    #expect(
      error(reading: bytes(text))?.contains("uses trace format 3.0, newer than this reader") == true
    )
  }
}
