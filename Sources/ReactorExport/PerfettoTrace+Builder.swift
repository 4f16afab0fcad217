import ReactorTracing

extension PerfettoTrace {
  /// Converts events one at a time, keeping only what open effects need: the events of one
  /// reactor (a trace) or of many (a session), each reactor a process of its own.
  struct Builder: SessionExportBuilder {
    var events = PendingEvents()

    /// Where one end of an arrow goes: a time on a track of a process.
    struct Point {
      var time: Duration
      var process: Int64
      var track: Int64
    }

    /// A reactor's process and its tracks.
    struct Process {
      var pid: Int64
      var actions: Int64
      var mutations: Int64
      var streams: Int64
      /// Effect tracks whose effect ended, and when, to reuse lowest first.
      var freeTracks: [(track: Int64, freedAt: Duration)] = []
      var effectTrackCount: Int64 = 0
      /// The highest action id forgotten from ``Builder/actionInstants``.
      var highestForgottenAction: Int?
      var counters = StateCounters()
      /// When the counters' last point was made.
      var lastCounterPoint: Duration?
      /// The reactor's last action or mutation, which a reactor it creates names as `during`.
      var lastInstant: (sequence: Int, instant: Instant)?
    }

    /// An instant already made: its place among all trace events and where it is.
    struct Instant {
      var index: Int
      var point: Point
    }

    /// An effect of a reactor, or an action of a reactor, as a key.
    struct ReactorItem: Hashable {
      var reactor: Int
      var id: Int
    }

    /// An effect that started and has not ended: where its slice waits in ``events``.
    struct OpenEffect {
      /// The slice's place, by its index among all trace events.
      var slot: Int
      var process: Int64
      var track: Int64
      var start: Duration
      var name: String
      var arguments: JSONObject
      /// Whether its slot holds a begin event (`B`), so that its end is an `E` event.
      var isBegun = false
    }

    /// A reactor's introduction whose arrow from its parent waits for the parent's next event.
    struct Creation {
      var parent: Int
      /// The parent's instant that `during` names, when it is still known.
      var during: Instant?
      /// The child's `introduced` instant.
      var target: Point
    }

    /// The session's header: its facts go into the metadata.
    let header: SessionHeader
    /// Whether the events are a trace's of one reactor: its process is named by its type
    /// alone, its tracks have the fixed ids, its introduction is not drawn and the trace's gaps
    /// and end are on its actions track; a session's reactors are named by name and id, their
    /// tracks numbered above every process id, and the session's gaps and end are global.
    let isOneReactor: Bool
    var processes: [Int: Process] = [:]
    var openEffects: [ReactorItem: OpenEffect] = [:]
    /// Introductions of reactors created by one parent at one time, whose arrows wait for the
    /// parent's next event (``settleCreations(from:)``).
    var creations: [Creation] = []
    /// Where each action's instant is among all trace events, and its time; actions long
    /// written are forgotten.
    var actionInstants: [ReactorItem: Instant] = [:]
    /// How many actions ``actionInstants`` holds before those long written are forgotten.
    static let rememberedActions = 1 << 17
    /// Arrows from actions forgotten before their effect or mutation came.
    var arrowsLeftOut = 0
    /// How many reactors were introduced.
    var reactorCount = 0
    /// The type of the first reactor introduced.
    var firstType: String?
    /// The process and track the session's gaps and end name (its first reactor's actions).
    var sessionTrack: (process: Int64, track: Int64)?
    var nextFlow: Int64 = 1
    var lastTime: Duration = .zero
    /// The next thread id a session gives out: above every reactor id used as a process id,
    /// so that no thread of one process has the id of another (Perfetto names threads by id).
    var nextThread: Int64 = Builder.firstSessionThread
    /// The next process id for a reactor whose id is too large to be one.
    var nextLargeProcess: Int64 = Builder.firstSessionThread / 2
    /// Tracks that had to share the last thread id because the ids ran out.
    var sharedTracks = 0
    /// The most events that wait behind open effects.
    let pendingLimit: Int
    /// Events kept unwritten behind the newest, so that arrows from recent actions start
    /// right after their instant.
    var keptForArrows: Int { pendingLimit / 16 }

    /// Where a session's thread ids start; its process ids (reactor ids) stay below half of it.
    ///
    /// Viewers read both as unsigned 32-bit numbers.
    static let firstSessionThread: Int64 = 1 << 31
    static let largestID = Int64(UInt32.max)

    init(header: SessionHeader, pendingLimit: Int) {
      self.header = header
      isOneReactor = header.isTraceOfOneReactor
      self.pendingLimit = pendingLimit
    }

    // MARK: Reactors

    /// Gives a reactor its process and tracks, and its counters their first point.
    ///
    /// The process id is the reactor's id (1 for a trace of one reactor) and its actions track
    /// the process's main thread (the same id). Its other tracks have the fixed ids of a trace
    /// of one reactor (2 mutations, 3 streams, effect tracks from 10), or in a session ids of
    /// their own above every process id.
    mutating func introduce(
      _ introduction: ReactorIntroduction, sequence: Int, time: Duration
    ) {
      reactorCount += 1
      if firstType == nil { firstType = introduction.type }
      let reactor = introduction.reactor
      // Siblings made in one step wait together; anything else settles the waiting ones.
      if let waiting = creations.first,
        waiting.parent != introduction.parent || waiting.target.time != time
      {
        settleCreations(from: nil)
      }
      let pid: Int64
      if reactor < Self.firstSessionThread / 2 {
        pid = Int64(reactor)
      } else {
        pid = min(nextLargeProcess, Self.firstSessionThread - 1)
        if nextLargeProcess < Self.firstSessionThread { nextLargeProcess += 1 }
      }
      let process = Process(
        pid: pid, actions: pid, mutations: newTrack(mutationTrack),
        streams: newTrack(streamTrack))
      processes[reactor] = process
      if sessionTrack == nil { sessionTrack = (pid, pid) }
      events.append(
        Self.metadata(
          "process_name", process: pid, track: isOneReactor ? nil : process.actions,
          type: processName(introduction)))
      if !isOneReactor {
        events.append(
          .object(
            Self.object([
              "ph": "M", "name": "process_sort_index", "pid": .int(pid),
              "tid": .int(process.actions), "args": ["sort_index": .int(Int64(reactorCount))],
            ])))
      }
      for (track, index, name) in [
        (process.actions, actionTrack, "actions"), (process.mutations, mutationTrack, "mutations"),
        (process.streams, streamTrack, "streams"),
      ] {
        events.append(Self.metadata("thread_name", process: pid, track: track, type: name))
        events.append(Self.sortIndex(process: pid, track: track, index: index))
      }
      // A trace of one reactor holds no introduction of its own.
      if !isOneReactor { drawIntroduction(introduction, on: process, sequence: sequence, at: time) }
      count(reactor, state: introduction.initialState, through: nil, at: time)
    }

    /// The `introduced` instant of a session's reactor, and the arrow from the parent's event
    /// that created it.
    private mutating func drawIntroduction(
      _ introduction: ReactorIntroduction, on process: Process, sequence: Int, at time: Duration
    ) {
      let reactor = introduction.reactor
      let pid = process.pid
      var arguments = Self.object([
        "seq": .int(Int64(sequence)), "reactor": .int(Int64(reactor)),
        "type": .string(introduction.type),
      ])
      if let name = introduction.name { arguments["name"] = .string(name) }
      if let parent = introduction.parent { arguments["parent"] = .int(Int64(parent)) }
      if let during = introduction.createdDuring { arguments["during"] = .int(Int64(during)) }
      let target = Point(time: time, process: pid, track: process.actions)
      events.append(
        Self.instant(
          "introduced", category: "reactor", at: target, arguments: arguments))
      // An arrow from the parent's event that created this reactor, drawn at the parent's
      // next event: a reactor made in `reduce` names the event before the mutation (its line
      // is written once `reduce` returned), so when that mutation comes next, at this time,
      // the arrow starts there; otherwise at the event `during` names.
      if let parent = introduction.parent, processes[parent] != nil {
        var during: Instant?
        if let sequence = introduction.createdDuring, let last = processes[parent]?.lastInstant,
          last.sequence == sequence
        {
          during = last.instant
        }
        creations.append(Creation(parent: parent, during: during, target: target))
      }
    }

    /// Draws the arrows of the introductions waiting for their parent's next event: from
    /// `source` (the parent's mutation that came next, at their time), or else from the event
    /// each one's `during` names.
    mutating func settleCreations(from source: Instant?) {
      guard !creations.isEmpty else { return }
      let waiting = creations
      creations = []
      for creation in waiting {
        guard let start = source ?? creation.during else { continue }
        flow(from: start, to: creation.target)
      }
    }

    /// Ends a reactor's lane: its effects still running end here, and its process is
    /// forgotten.
    mutating func release(_ reactor: Int, sequence: Int, time: Duration) {
      lastTime = time
      settleCreations(from: nil)
      guard let process = processes[reactor] else { return }
      for (key, var effect) in openEffects.filter({ $0.key.reactor == reactor })
        .sorted(by: { $0.key.id < $1.key.id })
      {
        openEffects[key] = nil
        effect.arguments["outcome"] = "still running when the reactor was released"
        close(effect, at: time, reactor: reactor)
      }
      events.append(
        Self.instant(
          "released", category: "reactor",
          at: Point(time: time, process: process.pid, track: process.actions),
          arguments: Self.object(["seq": .int(Int64(sequence))])))
      closeCounters(of: reactor, at: time)
      processes[reactor] = nil
    }

    // MARK: Events

    /// Adds an event of a reactor, and a counter point when a mutation changed a counted
    /// field of `state`, its state after it.
    mutating func add(
      _ kind: TraceEvent.Kind, of reactor: Int, sequence: Int, time: Duration,
      state: TraceHeader.State?
    ) {
      lastTime = time
      // The parent's mutation at their time draws the waiting introductions' arrows itself.
      if let waiting = creations.first {
        var isTheirMutation = false
        if case .mutation = kind, reactor == waiting.parent, time == waiting.target.time {
          isTheirMutation = true
        }
        if !isTheirMutation { settleCreations(from: nil) }
      }
      guard let process = processes[reactor] else { return }
      let seq = JSONValue.int(Int64(sequence))
      switch kind {
      case .action(let action):
        var arguments = Self.object(["seq": seq, "id": .int(Int64(action.id))])
        if case .stream(let stream) = action.source { arguments["stream"] = .string(stream) }
        if let value = action.value { arguments["value"] = value }
        if let from = action.from { arguments["from"] = .string(from.description) }
        let point = Point(time: time, process: process.pid, track: process.actions)
        let instant = Instant(index: events.endIndex, point: point)
        actionInstants[ReactorItem(reactor: reactor, id: action.id)] = instant
        processes[reactor]?.lastInstant = (sequence, instant)
        events.append(
          Self.instant(action.label, category: "action", at: point, arguments: arguments))
        // After the instant, so that the arrow's end binds to it.
        if let from = action.from { flow(from: from, at: time, to: point) }
      case .effectStarted(let start):
        let key = ReactorItem(reactor: reactor, id: start.effect)
        // A second start of an effect still running (a damaged or hand-edited trace): the
        // first one's slice ends here, so that each start has a slice of its own.
        if var earlier = openEffects.removeValue(forKey: key) {
          earlier.arguments["outcome"] = .string("started again (seq \(sequence))")
          close(earlier, at: time, reactor: reactor)
        }
        let track = freeTrack(of: reactor, at: time)
        let name = start.name ?? "effect \(start.effect)"
        let arguments = Self.object([
          "seq": seq, "effect": .int(Int64(start.effect)), "action": .int(Int64(start.action)),
        ])
        // The slice goes where the effect started, filled in when it ends, so that every
        // track's events stay in time order in the file.
        openEffects[key] = OpenEffect(
          slot: events.endIndex, process: process.pid, track: track, start: time, name: name,
          arguments: arguments)
        events.appendPlaceholder()
        flow(
          fromAction: ReactorItem(reactor: reactor, id: start.action),
          to: Point(time: time, process: process.pid, track: track))
      case .effectEnded(let end):
        guard
          var effect = openEffects.removeValue(
            forKey: ReactorItem(reactor: reactor, id: end.effect))
        else { return }
        switch end.outcome {
        case .finished: effect.arguments["outcome"] = "finished"
        case .cancelled: effect.arguments["outcome"] = "cancelled"
        case .failed(let error):
          effect.arguments["outcome"] = "failed"
          effect.arguments["error"] = .string(error)
        }
        close(effect, at: time, reactor: reactor)
      case .mutation(let mutation):
        add(mutation, of: reactor, process: process, sequence: sequence, time: time)
        if let state { count(reactor, state: state, through: mutation.state, at: time) }
      case .streamEnded(let end):
        var arguments = Self.object(["seq": seq])
        if let error = end.error { arguments["error"] = .string(error) }
        events.append(
          Self.instant(
            "\(end.stream) ended", category: "stream",
            at: Point(time: time, process: process.pid, track: process.streams),
            arguments: arguments))
      case .jump(let jump):
        var arguments = Self.object([
          "seq": seq, "to": .int(Int64(jump.target)),
          "hash": .string(jump.stateHash.description),
        ])
        if let external = jump.external { arguments["external"] = .string(external) }
        events.append(
          Self.instant(
            "jump to event \(jump.target)", category: "jump",
            at: Point(time: time, process: process.pid, track: process.actions),
            arguments: arguments))
        if let state { count(reactor, state: state, through: jump.stateChange, at: time) }
      case .gap(let gap):
        self.gap(gap, sequence: sequence, time: time)
      case .end(let end):
        self.end(
          observed: end.observedEvents, dropped: end.droppedEvents, sequence: sequence, time: time)
      @unknown default:
        // A kind added after this export was written: an instant named by its description.
        events.append(
          Self.instant(
            String(describing: kind), category: "other",
            at: Point(time: time, process: process.pid, track: process.streams),
            arguments: Self.object(["seq": seq])))
      }
    }

    private mutating func add(
      _ mutation: TraceEvent.Mutation, of reactor: Int, process: Process, sequence: Int,
      time: Duration
    ) {
      var arguments = Self.object([
        "seq": .int(Int64(sequence)), "id": .int(Int64(mutation.id)),
        "hash": .string(mutation.stateHash.description),
      ])
      if let value = mutation.value { arguments["value"] = value }
      // Where the arrow starts: at the action's instant, or inside the effect's slice.
      var sourceAction: Int?
      var sourceEffect: Int64?
      switch mutation.cause {
      case .action(let action):
        arguments["cause"] = .string("action \(action)")
        sourceAction = action
      case .effect(let effect, let action):
        arguments["cause"] = .string("effect \(effect) of action \(action)")
        sourceEffect = openEffects[ReactorItem(reactor: reactor, id: effect)]?.track
      case .stream(let stream):
        arguments["cause"] = .string("stream \(stream)")
      }
      if let from = mutation.from { arguments["from"] = .string(from.description) }
      switch mutation.state {
      case .snapshot(let state): arguments["state"] = state
      case .diff(let operations): arguments["changes"] = .array(operations.map(\.json))
      case .description(let text): arguments["state"] = .string(text)
      }
      let target = Point(time: time, process: process.pid, track: process.mutations)
      let instant = Instant(index: events.endIndex, point: target)
      processes[reactor]?.lastInstant = (sequence, instant)
      events.append(
        Self.instant(mutation.label, category: "mutation", at: target, arguments: arguments))
      // After the instant: a viewer binds each end of an arrow to the slice that is open on
      // its track when it reads it, and events at one time are read in file order.
      if let sourceAction {
        flow(fromAction: ReactorItem(reactor: reactor, id: sourceAction), to: target)
      }
      if let sourceEffect {
        flow(
          from: Point(time: time, process: process.pid, track: sourceEffect), to: target)
      }
      if let from = mutation.from { flow(from: from, at: time, to: target) }
      // The reactors this mutation's `reduce` created.
      if creations.first?.parent == reactor { settleCreations(from: instant) }
    }

    /// The recorder dropped events here: the trace is incomplete from this point.
    mutating func gap(_ gap: TraceEvent.Gap, sequence: Int, time: Duration) {
      lastTime = time
      settleCreations(from: nil)
      events.append(
        sessionInstant(
          "\(gap.droppedEvents) events dropped", category: "gap", time: time,
          arguments: Self.object([
            "seq": .int(Int64(sequence)), "dropped": .int(Int64(gap.droppedEvents)),
          ])))
    }

    /// The recording was closed.
    mutating func end(_ end: SessionEvent.End, sequence: Int, time: Duration) {
      self.end(
        observed: end.observedEvents, dropped: end.droppedEvents, sequence: sequence, time: time)
    }

    private mutating func end(observed: Int, dropped: Int, sequence: Int, time: Duration) {
      lastTime = time
      settleCreations(from: nil)
      for reactor in processes.keys.sorted() { closeCounters(of: reactor, at: time) }
      events.append(
        sessionInstant(
          "recording ended", category: "recording", time: time,
          arguments: Self.object([
            "seq": .int(Int64(sequence)), "observed": .int(Int64(observed)),
            "dropped": .int(Int64(dropped)),
          ])))
    }

    /// An instant of the whole recording, named after the first reactor's actions track: on
    /// that track in a trace of one reactor; in a session, global (drawn across every process).
    private func sessionInstant(
      _ name: String, category: String, time: Duration, arguments: JSONObject
    ) -> JSONValue {
      var object = Self.object([
        "ph": "i", "s": isOneReactor ? "t" : "g", "cat": .string(category),
        "name": .string(name),
      ])
      if let sessionTrack {
        object["pid"] = .int(sessionTrack.process)
        object["tid"] = .int(sessionTrack.track)
      }
      object["ts"] = Self.microseconds(time)
      object["args"] = .object(arguments)
      return .object(object)
    }

    /// A point on the counter tracks of a reactor's numeric and Boolean state fields when one
    /// of them changed, holding every field's value.
    mutating func count(
      _ reactor: Int, state: TraceHeader.State, through change: TraceEvent.StateChange?,
      at time: Duration
    ) {
      guard var process = processes[reactor] else { return }
      let changes = process.counters.changes(in: state, through: change)
      processes[reactor] = process
      guard !changes.isEmpty else { return }
      addCounterPoint(of: reactor, at: time)
    }

    /// Repeats a reactor's counters' last values where its lane ends (its release, the end of
    /// the recording), when they were set before: a viewer draws a point until the next one,
    /// and the Chrome trace viewer draws the last one not at all.
    private mutating func closeCounters(of reactor: Int, at time: Duration) {
      guard let last = processes[reactor]?.lastCounterPoint, last < time else { return }
      addCounterPoint(of: reactor, at: time)
    }

    /// One point with every field's value (Perfetto makes a track of each, `state value`).
    private mutating func addCounterPoint(of reactor: Int, at time: Duration) {
      guard let process = processes[reactor] else { return }
      let fields = process.counters.current
      guard !fields.isEmpty else { return }
      var point = Self.object([
        "ph": "C", "cat": "state", "name": "state", "pid": .int(process.pid),
      ])
      // In a session, the thread too: a viewer takes a missing one to be the process id.
      point["tid"] = isOneReactor ? nil : .int(process.actions)
      point["ts"] = Self.microseconds(time)
      point["args"] = .object(JSONObject(fields.map { ($0.name, JSONValue.double($0.value)) }))
      events.append(.object(point))
      processes[reactor]?.lastCounterPoint = time
    }

    // MARK: Writing

    /// Ends the effects still running when the recording stopped at the last event's time,
    /// writes every event left, and then the metadata: the header's facts (the reactor's type
    /// for a trace, how many reactors for a session), the reader's warnings, and what was left
    /// out.
    mutating func finish(warnings: [TraceWarning], to output: ([UInt8]) -> Void) -> Summary {
      settleCreations(from: nil)
      for reactor in processes.keys.sorted() { closeCounters(of: reactor, at: lastTime) }
      for (key, var effect) in openEffects.sorted(by: {
        ($0.key.reactor, $0.key.id) < ($1.key.reactor, $1.key.id)
      }) {
        effect.arguments["outcome"] = "still running when the recording stopped"
        close(effect, at: lastTime, reactor: key.reactor)
      }
      openEffects = [:]
      events.write(upTo: events.endIndex, to: output)
      var metadata = JSONObject()
      metadata["reactor"] = isOneReactor ? firstType.map(JSONValue.string) : nil
      metadata["reactors"] = isOneReactor ? nil : .int(Int64(reactorCount))
      metadata["clock"] = .string(header.clock.name)
      metadata["format"] = .string("reactor-trace \(header.version)")
      if let recorder = header.recorder { metadata["recorder"] = .string(recorder) }
      if let origin = header.clock.origin { metadata["origin"] = .string(origin) }
      for (key, value) in header.metadata.sorted(by: { $0.key < $1.key }) {
        metadata["metadata." + key] = .string(value)
      }
      metadata["warnings"] = .array(warnings.map { .string($0.description) })
      if arrowsLeftOut > 0 { metadata["arrowsLeftOut"] = .int(Int64(arrowsLeftOut)) }
      if sharedTracks > 0 { metadata["sharedTracks"] = .int(Int64(sharedTracks)) }
      var tail = Array("\n],\"metadata\":".utf8)
      JSONValue.object(metadata).write(to: &tail)
      tail.append(contentsOf: "}\n".utf8)
      output(tail)
      return Summary(eventCount: events.writtenCount, metadata: metadata)
    }

    /// Writes the events no open effect holds back, once enough wait; when too many wait
    /// behind an effect, its slice becomes a begin and an end.
    mutating func write(to output: ([UInt8]) -> Void) {
      guard events.pendingCount >= 4 * keptForArrows else { return }
      var limit = events.endIndex - keptForArrows
      if events.pendingCount >= pendingLimit {
        for (effect, open) in openEffects.sorted(by: { $0.value.slot < $1.value.slot })
        where !open.isBegun && open.slot < limit {
          events.replace(
            at: open.slot,
            with: [
              "ph": "B", "cat": "effect", "name": .string(open.name), "pid": .int(open.process),
              "tid": .int(open.track), "ts": Self.microseconds(open.start),
              "args": .object(open.arguments),
            ])
          openEffects[effect]?.isBegun = true
        }
      }
      for open in openEffects.values where !open.isBegun { limit = min(limit, open.slot) }
      guard limit > events.startIndex else { return }
      events.write(upTo: limit, to: output)
      if actionInstants.count > Self.rememberedActions {
        for (action, instant) in actionInstants where instant.index < events.startIndex {
          actionInstants[action] = nil
          if let process = processes[action.reactor] {
            processes[action.reactor]?.highestForgottenAction = max(
              process.highestForgottenAction ?? action.id, action.id)
          }
        }
      }
    }

    // MARK: Tracks

    /// The id of a new track whose fixed id in a trace of one reactor is `index`: that id, or
    /// in a session a thread id of its own.
    private mutating func newTrack(_ index: Int64) -> Int64 {
      isOneReactor ? index : newThread()
    }

    /// A thread id for a track of a session, above every process id.
    private mutating func newThread() -> Int64 {
      guard nextThread <= Self.largestID else {
        sharedTracks += 1
        return Self.largestID
      }
      defer { nextThread += 1 }
      return nextThread
    }

    /// A free effect track of a reactor, made when none is free.
    ///
    /// A track whose effect ended at `time` is not free yet: one slice ending where the next
    /// begins leaves a viewer that binds an arrow by time alone (the Chrome trace viewer) two
    /// slices to choose from, and it took the one that ended.
    private mutating func freeTrack(of reactor: Int, at time: Duration) -> Int64 {
      guard var process = processes[reactor] else { return 0 }
      defer { processes[reactor] = process }
      if let free = process.freeTracks.firstIndex(where: { $0.freedAt < time }) {
        return process.freeTracks.remove(at: free).track
      }
      process.effectTrackCount += 1
      let index = firstEffectTrack + process.effectTrackCount - 1
      let track = newTrack(index)
      events.append(
        Self.metadata(
          "thread_name", process: process.pid, track: track,
          type: "effects \(process.effectTrackCount)"))
      events.append(Self.sortIndex(process: process.pid, track: track, index: index))
      return track
    }

    private mutating func close(_ effect: OpenEffect, at time: Duration, reactor: Int) {
      if processes[reactor] != nil {
        processes[reactor]?.freeTracks.append((effect.track, time))
        processes[reactor]?.freeTracks.sort { $0.track < $1.track }
      }
      if effect.isBegun {
        events.append([
          "ph": "E", "cat": "effect", "name": .string(effect.name), "pid": .int(effect.process),
          "tid": .int(effect.track), "ts": Self.microseconds(time),
          "args": .object(effect.arguments),
        ])
        return
      }
      events.replace(
        at: effect.slot,
        with: [
          "ph": "X", "cat": "effect", "name": .string(effect.name), "pid": .int(effect.process),
          "tid": .int(effect.track), "ts": Self.microseconds(effect.start),
          "dur": Self.microseconds(time - effect.start), "args": .object(effect.arguments),
        ])
    }

    // MARK: Arrows

    /// An arrow from an action's instant.
    ///
    /// None when the action is not in the trace (in a windowed trace), or was forgotten
    /// (counted in ``arrowsLeftOut``).
    private mutating func flow(fromAction action: ReactorItem, to end: Point) {
      guard let instant = actionInstants[action] else {
        if let highest = processes[action.reactor]?.highestForgottenAction, action.id <= highest {
          arrowsLeftOut += 1
        }
        return
      }
      flow(from: instant, to: end)
    }

    /// An arrow from what was running in another reactor (or this one) when it sent an
    /// action or published a stream element: from inside that effect's slice when it is
    /// still open, or else from the action's instant.
    private mutating func flow(
      from origin: TraceEvent.ReactorOrigin, at time: Duration, to end: Point
    ) {
      if let effect = origin.effect,
        let open = openEffects[ReactorItem(reactor: origin.reactor, id: effect)]
      {
        flow(from: Point(time: time, process: open.process, track: open.track), to: end)
      } else if let action = origin.action {
        flow(fromAction: ReactorItem(reactor: origin.reactor, id: action), to: end)
      }
    }

    /// An arrow from an instant.
    ///
    /// Its start goes right after the instant while that is unwritten; after it, at the instant's time, where a viewer (which orders events by
    /// time) binds it to the last instant of that time.
    private mutating func flow(from instant: Instant, to end: Point) {
      let id = JSONValue.int(nextFlow)
      nextFlow += 1
      let start = Self.flowStart(id: id, at: instant.point)
      if !events.insert(start, after: instant.index) { events.append(start) }
      events.append(Self.flowEnd(id: id, at: end))
    }

    /// An arrow from the slice open on a track at a time.
    private mutating func flow(from start: Point, to end: Point) {
      let id = JSONValue.int(nextFlow)
      nextFlow += 1
      events.append(Self.flowStart(id: id, at: start))
      events.append(Self.flowEnd(id: id, at: end))
    }

    // MARK: Trace events

    static func flowStart(id: JSONValue, at point: Point) -> JSONValue {
      [
        "ph": "s", "cat": "cause", "name": "cause", "id": id, "pid": .int(point.process),
        "tid": .int(point.track), "ts": microseconds(point.time),
      ]
    }

    static func flowEnd(id: JSONValue, at point: Point) -> JSONValue {
      [
        "ph": "f", "bp": "e", "cat": "cause", "name": "cause", "id": id,
        "pid": .int(point.process), "tid": .int(point.track), "ts": microseconds(point.time),
      ]
    }

    static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONObject {
      JSONObject(members.map { ($0.key, $0.value) })
    }

    static func instant(
      _ name: String, category: String, at point: Point, arguments: JSONObject
    ) -> JSONValue {
      [
        "ph": "i", "s": "t", "cat": .string(category), "name": .string(name),
        "pid": .int(point.process), "tid": .int(point.track), "ts": microseconds(point.time),
        "args": .object(arguments),
      ]
    }

    static func metadata(
      _ kind: String, process: Int64, track: Int64?, type name: String
    ) -> JSONValue {
      var object = Self.object([
        "ph": "M", "name": .string(kind), "pid": .int(process), "args": ["name": .string(name)],
      ])
      if let track { object["tid"] = .int(track) }
      return .object(object)
    }

    static func sortIndex(process: Int64, track: Int64, index: Int64) -> JSONValue {
      [
        "ph": "M", "name": "thread_sort_index", "pid": .int(process), "tid": .int(track),
        "args": ["sort_index": .int(index)],
      ]
    }

    /// A reactor's process name: `list #1 · TaskListReactor`, or `TaskCellReactor #3` for one
    /// without a name; a trace's reactor, by its type alone (`CounterReactor`).
    ///
    /// The type is written without its module, as the other views write it; the whole type
    /// is an argument of a session reactor's `introduced` instant and in a trace's metadata.
    func processName(_ introduction: ReactorIntroduction) -> String {
      guard !isOneReactor else { return introduction.shortType }
      guard let name = introduction.name else {
        return "\(introduction.shortType) #\(introduction.reactor)"
      }
      return "\(name) #\(introduction.reactor) · \(introduction.shortType)"
    }

    /// Microseconds, exact: whole ones as integers, the rest with the nanoseconds as decimals.
    static func microseconds(_ duration: Duration) -> JSONValue {
      let nanoseconds = duration.traceNanoseconds
      if nanoseconds % 1_000 == 0 { return .int(nanoseconds / 1_000) }
      return .double(Double(nanoseconds) / 1_000)
    }
  }
}
