import Foundation
import ReactorExport
import ReactorTestSupport
import ReactorTracing
import Testing

/// The committed example traces and the task app's session, found from this file's path.
private let tracesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Traces").path

private let exampleTraces: [String] = {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: tracesDirectory)) ?? []
  return names.filter { $0.hasSuffix(".trace.jsonl") }.sorted()
}()

private let taskAppSession = tracesDirectory + "/taskapp.session.jsonl"

@Suite("Perfetto export of a session")
struct PerfettoSessionTests {
  /// A session's document, parsed back, with its trace events.
  private struct Document {
    var json: JSONValue
    var events: [JSONValue]
    /// The process ids by the reactor ids their names end with.
    var processes: [Int: Int64]
    /// Each thread id's process and name.
    var threads: [Int64: (process: Int64, name: String)]

    init(bytes: [UInt8]) throws {
      json = try JSONValue(parsing: bytes)
      events = try #require(json["traceEvents"]?.arrayValue)
      processes = [:]
      threads = [:]
      for event in events where event["ph"]?.stringValue == "M" {
        let process = Int64(try #require(event["pid"]?.intValue))
        switch event["name"]?.stringValue {
        case "process_name":
          // The reactor's id is in the name: `list #1 · …` or `… #3`.
          let name = try #require(event["args"]?["name"]?.stringValue)
          let id = try #require(name.split(separator: "#").last?.prefix { $0.isNumber })
          processes[try #require(Int(id))] = process
        case "thread_name":
          let thread = Int64(try #require(event["tid"]?.intValue))
          let name = try #require(event["args"]?["name"]?.stringValue)
          #expect(threads.updateValue((process, name), forKey: thread) == nil)
        default: break
        }
      }
    }

    /// The thread of a reactor's process with this name.
    func thread(_ name: String, of reactor: Int) -> Int64? {
      threads.first { $0.value.process == processes[reactor] && $0.value.name == name }?.key
    }

    /// The trace events (not metadata) whose `args.seq` is `sequence`.
    func events(at sequence: Int) -> [JSONValue] {
      events.filter { $0["ph"]?.stringValue != "M" && $0["args"]?["seq"]?.intValue == sequence }
    }

    /// The index of the trace event (not metadata, not a flow event) before the one at
    /// `index`.
    func eventBefore(_ index: Int) -> JSONValue? {
      events[..<index].last { !["M", "s", "f", "C"].contains($0["ph"]?.stringValue ?? "") }
    }

    /// The flow event with this phase (`s` or `f`) and id.
    func flow(_ phase: String, id: Int) -> JSONValue? {
      events.first { $0["ph"]?.stringValue == phase && $0["id"]?.intValue == id }
    }

    /// The flow ends on the track of the event at `sequence` that come right after it (only
    /// flow events and counter points, which no arrow binds to, in between), with their
    /// starts.
    func arrows(into sequence: Int) throws -> [(start: JSONValue, end: JSONValue)] {
      let target = try #require(events.firstIndex { $0["args"]?["seq"]?.intValue == sequence })
      var arrows: [(start: JSONValue, end: JSONValue)] = []
      for event in events[(target + 1)...] {
        guard ["f", "s", "C"].contains(event["ph"]?.stringValue ?? "") else { break }
        guard event["ph"]?.stringValue == "f", event["tid"] == events[target]["tid"] else {
          continue
        }
        let id = try #require(event["id"]?.intValue)
        arrows.append((try #require(flow("s", id: id)), event))
      }
      return arrows
    }
  }

  private func export(
    _ reader: SessionReader, pendingLimit: Int = PerfettoTrace.pendingLimit
  ) throws -> (document: Document, readAtEachPiece: [Int]) {
    var bytes: [UInt8] = []
    var readAtEachPiece: [Int] = []
    try PerfettoTrace.write(
      session: reader,
      to: {
        bytes.append(contentsOf: $0)
        readAtEachPiece.append(reader.eventCount)
      }, pendingLimit: pendingLimit)
    return (try Document(bytes: bytes), readAtEachPiece)
  }

  @Test(arguments: exampleTraces)
  func aTraceOfOneReactorReadAsASessionGivesTheSameDocument(_ name: String) throws {
    let path = tracesDirectory + "/" + name
    var trace: [UInt8] = []
    try PerfettoTrace.write(reader: TraceReader(path: path)) { trace.append(contentsOf: $0) }
    var session: [UInt8] = []
    try PerfettoTrace.write(session: SessionReader(path: path)) { session.append(contentsOf: $0) }
    #expect(session == trace)
  }

  @Test func theTaskAppSessionHasAProcessPerReactorNamedByNameIdAndType() throws {
    let document = try export(SessionReader(path: taskAppSession)).document
    let names = document.events.filter { $0["name"]?.stringValue == "process_name" }
      .compactMap { $0["args"]?["name"]?.stringValue }
    // The type without its module, as the other views name it; the whole type is an argument
    // of the reactor's introduction.
    #expect(
      names == ["list #1 · TaskAppListReactor", "edit #2 · TaskEditReactor"]
        + (3...9).map { "TaskCellReactor #\($0)" })
    let introduced = document.events.filter { $0["name"]?.stringValue == "introduced" }
    #expect(
      introduced.first?["args"]?["type"]?.stringValue == "ReactorExamples.TaskAppListReactor")
    // The process id is the reactor's id, its actions track its main thread.
    #expect(document.processes == Dictionary(uniqueKeysWithValues: (1...9).map { ($0, Int64($0)) }))
    for reactor in 1...9 {
      #expect(document.thread("actions", of: reactor) == Int64(reactor))
      #expect(document.thread("mutations", of: reactor) != nil)
      #expect(document.thread("streams", of: reactor) != nil)
    }
    // No thread has the id of another process, and every event's thread is its process's.
    for (thread, owner) in document.threads {
      #expect(!document.processes.values.contains(thread) || thread == owner.process)
    }
    for event in document.events where event["tid"] != nil && event["s"]?.stringValue != "g" {
      let thread = Int64(try #require(event["tid"]?.intValue))
      let process = Int64(try #require(event["pid"]?.intValue))
      #expect(document.threads[thread]?.process == process, "\(event.serializedString)")
    }
    #expect(document.json["metadata"]?["reactors"]?.intValue == 9)
    #expect(document.json["metadata"]?["metadata.app"]?.stringValue == "TaskApp")
  }

  @Test func everyEventOfTheSessionIsOnItsReactorsProcess() throws {
    let document = try export(SessionReader(path: taskAppSession)).document
    let session = try SessionTrace(contentsOf: taskAppSession)
    for event in session.events {
      let found = document.events(at: event.sequence)
      switch event.kind {
      case .reactor(_, .effectEnded), .end:
        continue
      case .gap:
        #expect(found.count == 1)
      default:
        let reactor = try #require(event.reactor)
        let instant = try #require(found.first, "seq \(event.sequence)")
        #expect(found.count == 1)
        #expect(
          instant["pid"]?.intValue.map(Int64.init) == document.processes[reactor],
          "seq \(event.sequence)")
      }
    }
    let end = try #require(document.events.last { $0["cat"]?.stringValue == "recording" })
    #expect(end["s"]?.stringValue == "g")
  }

  @Test func aStreamElementAnotherReactorPublishedIsAnArrowFromItsEffectToTheMutation() throws {
    let document = try export(SessionReader(path: taskAppSession)).document
    // seq 18: the list's insert, from the edit screen's save (reactor 2, action 2, effect 1).
    let arrows = try document.arrows(into: 18)
    #expect(arrows.count == 1)
    let arrow = try #require(arrows.first)
    #expect(arrow.end["tid"]?.intValue.map(Int64.init) == document.thread("mutations", of: 1))
    let save = try #require(
      document.events.first {
        $0["ph"]?.stringValue == "X" && $0["pid"]?.intValue == 2
          && $0["args"]?["effect"]?.intValue == 1
      })
    #expect(arrow.start["pid"]?.intValue == 2)
    #expect(arrow.start["tid"] == save["tid"])
    let start = try #require(arrow.start["ts"]?.intValue)
    let begin = try #require(save["ts"]?.intValue)
    let duration = try #require(save["dur"]?.intValue)
    #expect(begin <= start && start <= begin + duration)
    // seq 35: cell #4's setTask, from the edit screen's second save (effect 2).
    let second = try #require(try document.arrows(into: 35).first)
    #expect(second.end["pid"]?.intValue == 4)
    #expect(second.end["tid"]?.intValue.map(Int64.init) == document.thread("mutations", of: 4))
    #expect(second.start["pid"]?.intValue == 2)
    // seq 42: the list's own delete effect published the removal it merged.
    let own = try #require(try document.arrows(into: 42).first)
    #expect(own.start["pid"]?.intValue == 1)
    #expect(
      document.threads[Int64(try #require(own.start["tid"]?.intValue))]?.name == "effects 1")
  }

  @Test func aReactorMadeInItsParentsReduceHasItsArrowFromThatMutation() throws {
    let document = try export(SessionReader(path: taskAppSession)).document
    // Cells #3–#5 (seq 6–8, at 100 ms) are made in the reduce of the list's setTasks (seq 9,
    // at 100 ms) and name the list's setLoading(true) (seq 5, at 0 ms) as `during`, the
    // list's event before that mutation; cell #6 (seq 16) is made by the list's insert
    // (seq 18), cells #7–#9 (seq 48–50) by its second setTasks (seq 51).
    for (cells, mutation) in [(3...5, 9), (6...6, 18), (7...9, 51)] {
      let setTasks = try #require(document.events(at: mutation).first)
      for cell in cells {
        let introduced = try #require(
          document.events.first {
            $0["name"]?.stringValue == "introduced" && $0["pid"]?.intValue == cell
          })
        let ends = document.events.filter {
          $0["ph"]?.stringValue == "f" && $0["pid"]?.intValue == cell
            && $0["tid"] == introduced["tid"] && $0["ts"] == introduced["ts"]
        }
        #expect(ends.count == 1, "cell #\(cell)")
        let id = try #require(ends.first?["id"]?.intValue)
        let start = try #require(document.flow("s", id: id))
        #expect(start["pid"]?.intValue == 1)
        #expect(start["tid"] == setTasks["tid"])
        #expect(start["ts"] == setTasks["ts"], "cell #\(cell): the arrow leaves at its time")
        // In the file, the start binds to the mutation: it is the event right before it.
        let index = try #require(document.events.firstIndex { $0 == start })
        #expect(document.eventBefore(index) == setTasks, "cell #\(cell)")
      }
    }
  }

  @Test func anEffectThatStartsWhenAnotherEndsGetsAnotherTrack() throws {
    let document = try export(SessionReader(path: taskAppSession)).document
    // The list's delete effect (400–500 ms) and its second fetch (from 500 ms): one track
    // each, so that a viewer binding an arrow by time alone sees one slice at 500 ms.
    let slices = document.events.filter { $0["ph"]?.stringValue == "X" && $0["pid"] == 1 }
    let delete = try #require(slices.first { $0["name"]?.stringValue == "delete" })
    let fetch = try #require(slices.last { $0["name"]?.stringValue == "fetch tasks" })
    #expect(fetch["ts"]?.intValue == 500_000)
    #expect(
      (delete["ts"]?.intValue ?? 0) + (delete["dur"]?.intValue ?? 0) == fetch["ts"]?.intValue)
    #expect(delete["tid"] != fetch["tid"])
    #expect(document.threads[Int64(try #require(fetch["tid"]?.intValue))]?.name == "effects 2")
  }

  @Test func aReactorsCountersRepeatTheirLastValuesWhereItsLaneEnds() throws {
    let document = try export(SessionReader(path: taskAppSession)).document
    func points(of reactor: Int) -> [JSONValue] {
      document.events.filter { $0["ph"]?.stringValue == "C" && $0["pid"]?.intValue == reactor }
    }
    // Cell #3's task is done at 300 ms and the cell released at 600 ms: a viewer draws a
    // point until the next one (the Chrome trace viewer draws the last one not at all), so
    // the values are repeated at the release.
    let cell = points(of: 3)
    #expect(cell.compactMap { $0["ts"]?.intValue } == [100_000, 300_000, 600_000])
    #expect(cell.last?["args"] == ["task.id": 1, "task.isDone": 1])
    #expect(cell.last?["args"] == cell.dropLast().last?["args"])
    // Cell #9, introduced at the end of the recording, has no point to repeat.
    #expect(points(of: 9).compactMap { $0["ts"]?.intValue } == [600_000])
    // The list's last change is at the end (600 ms): nothing to repeat either.
    #expect(points(of: 1).last?["ts"]?.intValue == 600_000)
    #expect(points(of: 1).filter { $0["ts"]?.intValue == 600_000 }.count == 1)
  }

  @Test func anActionAnotherReactorSentIsAnArrowFromItsAction() throws {
    let bytes = SessionFixture.session().serialized
    let document = try export(SessionReader(bytes: bytes)).document
    // seq 11: the list's remove(0), sent by the cell (reactor 3) during its action 1.
    let arrows = try document.arrows(into: 11)
    #expect(arrows.count == 1)
    let arrow = try #require(arrows.first)
    #expect(arrow.end["pid"]?.intValue == 1)
    #expect(arrow.end["tid"]?.intValue.map(Int64.init) == document.thread("actions", of: 1))
    #expect(arrow.start["pid"]?.intValue == 3)
    #expect(arrow.start["tid"]?.intValue.map(Int64.init) == document.thread("actions", of: 3))
    // And the cell's introduction, from the list's mutation during which it was created.
    let creation = try #require(try document.arrows(into: 7).first)
    #expect(creation.start["pid"]?.intValue == 1)
    #expect(
      creation.start["tid"]?.intValue.map(Int64.init) == document.thread("mutations", of: 1))
    #expect(creation.end["pid"]?.intValue == 3)
  }

  @Test(arguments: [PerfettoTrace.pendingLimit, 4])
  func theSessionFollowsTheTraceEventFormatsRules(_ pendingLimit: Int) throws {
    for bytes in [
      try Array(Data(contentsOf: URL(fileURLWithPath: taskAppSession))),
      SessionFixture.session().serialized,
    ] {
      let document = try export(SessionReader(bytes: bytes), pendingLimit: pendingLimit).document
      try checkRules(document.events)
    }
  }

  @Test func theSessionGoesOutWhileItIsStillBeingRead() throws {
    let reader = try SessionReader(path: taskAppSession)
    let (_, readAtEachPiece) = try export(reader, pendingLimit: 4)
    #expect(readAtEachPiece.count > 2)
    #expect(readAtEachPiece.dropFirst().contains { $0 < reader.eventCount })
  }

  @Test func aReactorReleasedWithAnEffectRunningEndsItsSliceThere() throws {
    var session = SessionFixture.session()
    // The cell starts an effect right after its action and is released with it running.
    let start = SessionEvent(
      sequence: 0, time: .zero,
      kind: .reactor(3, .effectStarted(TraceEvent.EffectStart(effect: 1, action: 1, name: "load"))))
    let index = try #require(
      session.events.firstIndex {
        if case .reactor(3, .action) = $0.kind { true } else { false }
      })
    session.events.insert(start, at: index + 1)
    for offset in session.events.indices {
      session.events[offset].sequence = offset + 1
      session.events[offset].time = .milliseconds(10 * offset)
    }
    let document = try export(SessionReader(bytes: session.serialized)).document
    let slice = try #require(
      document.events.first { $0["ph"]?.stringValue == "X" && $0["pid"]?.intValue == 3 })
    #expect(
      slice["args"]?["outcome"]?.stringValue == "still running when the reactor was released")
    let released = try #require(
      document.events.first {
        $0["name"]?.stringValue == "released" && $0["pid"]?.intValue == 3
      })
    let end = try #require(slice["ts"]?.intValue) + (try #require(slice["dur"]?.intValue))
    #expect(end == released["ts"]?.intValue)
    try checkRules(document.events)
  }

  @Test func hostileReactorNamesStayText() throws {
    let hostile = "\u{202E}</script><b>\"list\"\n\u{0}\\ \u{2028}#9"
    var session = SessionFixture.session()
    for offset in session.events.indices {
      if case .introduced(var introduction) = session.events[offset].kind {
        introduction.name = hostile
        introduction.type = hostile
        session.events[offset].kind = .introduced(introduction)
      }
    }
    var bytes: [UInt8] = []
    try PerfettoTrace.write(session: SessionReader(bytes: session.serialized)) {
      bytes.append(contentsOf: $0)
    }
    // No control character but the newlines between trace events.
    #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A })
    let events = try #require(JSONValue(parsing: bytes)["traceEvents"]?.arrayValue)
    let names = events.filter { $0["name"]?.stringValue == "process_name" }
      .compactMap { $0["args"]?["name"]?.stringValue }
    #expect(
      names == [1, 2, 3].map { "\(hostile) #\($0) · \(hostile)" })
    try checkRules(events)
  }

  /// Checks the rules of the trace event format that viewers rely on, for any number of
  /// processes: thread ids belong to one process each, times on a track never go back, slices
  /// on a track do not overlap, and each flow has one start and one end, each inside what is
  /// open on its track when it is read.
  private func checkRules(_ events: [JSONValue]) throws {
    var owner: [Int64: Int64] = [:]
    var lastTime: [Int64: Double] = [:]
    var open: [Int64: (start: Double, end: Double)] = [:]
    var begun: [Int64: Double] = [:]
    var slices: [Int64: [(start: Double, end: Double)]] = [:]
    var flowStarts: Set<Int64> = []
    var flowEnds: Set<Int64> = []
    for event in events {
      let phase = try #require(event["ph"]?.stringValue)
      #expect(["M", "i", "X", "B", "E", "s", "f", "C"].contains(phase), "phase \(phase)")
      guard let tid = event["tid"]?.intValue else {
        #expect(phase == "M" || event["s"]?.stringValue == "g", "\(event.serializedString)")
        continue
      }
      let thread = Int64(tid)
      let process = Int64(try #require(event["pid"]?.intValue))
      #expect(thread > 0 && thread <= Int64(UInt32.max) && process > 0)
      #expect(owner.updateValue(process, forKey: thread) ?? process == process)
      guard phase != "M", phase != "C", event["s"]?.stringValue != "g" else { continue }
      let time = try #require(Self.number(event["ts"]))
      #expect(time >= lastTime[thread, default: 0], "time goes back on \(thread)")
      lastTime[thread] = time
      switch phase {
      case "X":
        let end = time + (try #require(Self.number(event["dur"])))
        slices[thread, default: []].append((time, end))
        open[thread] = (time, end)
      case "B":
        begun[thread] = time
        open[thread] = (time, .infinity)
      case "E":
        let removed = begun.removeValue(forKey: thread)
        let start = try #require(removed, "an end without a begin")
        slices[thread, default: []].append((start, time))
        open[thread] = (start, time)
      case "i":
        open[thread] = (time, time)
      case "s", "f":
        let enclosing = try #require(open[thread], "flow with nothing to bind to")
        #expect(enclosing.start <= time && time <= enclosing.end, "flow outside its slice")
        let id = Int64(try #require(event["id"]?.intValue))
        if phase == "s" {
          #expect(flowStarts.insert(id).inserted, "flow \(id) starts twice")
        } else {
          #expect(flowStarts.contains(id), "flow \(id) ends before it starts")
          #expect(flowEnds.insert(id).inserted, "flow \(id) ends twice")
        }
      default: break
      }
    }
    #expect(flowStarts == flowEnds, "a flow without both ends")
    #expect(begun.isEmpty, "a begin without an end")
    for (thread, trackSlices) in slices {
      let sorted = trackSlices.sorted { $0.start < $1.start }
      for (before, after) in zip(sorted, sorted.dropFirst()) {
        #expect(after.start > before.end, "slices overlap or touch on \(thread)")
      }
    }
  }

  private static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .int(let int): Double(int)
    case .double(let double): double
    default: nil
    }
  }
}
