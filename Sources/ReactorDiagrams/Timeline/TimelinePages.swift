public import ReactorTracing

/// A timeline split into pages of a fixed number of events, drawn one page at a time, so
/// that memory follows the page size, not the trace or session.
///
/// A first pass over the file counts the events, finds the reactors and their stream lanes
/// and notes how the effects that cross a page boundary end; a second pass draws each page
/// as it is asked for. The pages are the ones ``TimelineDiagram/pages(eventsPerPage:)`` makes
/// of the whole diagram, without holding it.
///
/// ```swift
/// let reader = try SessionReader(path: "long.trace.jsonl")
/// var pages = try TimelinePages(path: "long.trace.jsonl", reader: reader, eventsPerPage: 5_000)
/// while let page = try pages.next() {
///   let svg = try GraphvizRenderer().render(page, engine: .nop, format: .svg)
/// }
/// ```
public struct TimelinePages {
  /// What the timeline is of: the reactor a trace of one reactor records, or a session's app
  /// (`session` when it names none).
  public let title: String
  /// How many events the pages show in all.
  public let eventCount: Int
  /// How many events the recorder dropped in the gaps shown.
  public let droppedEventCount: Int
  /// The most events on one page.
  public let eventsPerPage: Int
  /// How many pages there are: at least one.
  public var pageCount: Int { max(1, (eventCount + eventsPerPage - 1) / eventsPerPage) }
  /// Every reactor the file introduces, drawn or not, in the order it does.
  public let introducedReactorIDs: [Int]

  /// An effect of a reactor.
  private struct EffectKey: Hashable {
    var reactor: Int
    var id: Int
  }

  /// An effect found in the first pass: its reactor, its id and its column (`nil` before the
  /// window).
  private struct EffectStart: Hashable {
    var effect: EffectKey
    var column: Int?
  }

  /// The groups of the whole window, with the streams each merged, but no events.
  private let groups: [TimelineDiagram.Group]
  /// How the effects open at the end of some page end: their column and outcome, `nil` for
  /// an effect its reactor's release ended.
  private let laterEnds: [EffectStart: (end: Int, outcome: TraceEvent.Outcome?)]
  private let window: ClosedRange<Int>
  private let reader: SessionReader
  private var accumulator: TimelineAccumulator
  /// The number of the next page, from 1.
  private var nextPage = 1
  private var isDone = false
  /// An event read past the end of the page before, for the next page.
  private var waiting: SessionEvent?

  /// Reads the whole file through `reader` (so that its warnings and event count are
  /// complete) and opens `path` again for the pages.
  ///
  /// - Parameters:
  ///   - path: The trace or session file.
  ///   - reader: A reader of `path` that has read no event yet.
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  ///   - reactors: The reactors to show, by id; `nil` for all of them.
  ///   - eventsPerPage: The most events on one page; at least 1.
  /// - Throws: ``TraceReadError`` when the file cannot be read.
  public init(
    path: String, reader: SessionReader, sequences: ClosedRange<Int>? = nil,
    reactors: Set<Int>? = nil, eventsPerPage: Int
  ) throws(TraceReadError) {
    let size = max(eventsPerPage, 1)
    let window = sequences ?? Int.min...Int.max
    // The first pass draws nothing: its accumulator only introduces the reactors.
    var outline = TimelineAccumulator(header: reader.header, reactors: reactors)
    var introduced: [Int] = []
    var columns = 0
    var dropped = 0
    var streams: [Int: [String]] = [:]
    var open: [EffectKey: EffectStart] = [:]
    var laterEnds: [EffectStart: (end: Int, outcome: TraceEvent.Outcome?)] = [:]
    func page(of column: Int?) -> Int { column.map { $0 / size } ?? -1 }
    func note(_ stream: String, of reactor: Int) {
      if !streams[reactor, default: []].contains(stream) {
        streams[reactor, default: []].append(stream)
      }
    }
    var isPastWindow = false
    while let event = try reader.next() {
      if case .introduced(let introduction) = event.kind { introduced.append(introduction.reactor) }
      // The rest is read only for what the reader notices at the end, and its reactors.
      if isPastWindow || event.sequence > window.upperBound {
        isPastWindow = true
        continue
      }
      let isShown = window.contains(event.sequence)
      let column = columns
      switch event.kind {
      case .introduced:
        outline.add(event, isShown: false) { _ in nil }
      case .reactor(let reactor, let kind):
        // An event's reactor was introduced before it: drawn when the view draws it.
        guard outline.draws(reactor) else { break }
        if isShown { columns += 1 }
        switch kind {
        case .effectStarted(let start):
          let key = EffectKey(reactor: reactor, id: start.effect)
          open[key] = EffectStart(effect: key, column: isShown ? column : nil)
        case .effectEnded(let end):
          let key = EffectKey(reactor: reactor, id: end.effect)
          guard let start = open.removeValue(forKey: key), isShown else { break }
          if page(of: column) > page(of: start.column) {
            laterEnds[start] = (column, end.outcome)
          }
        case .mutation(let mutation):
          guard isShown, case .stream(let name) = mutation.cause else { break }
          note(name, of: reactor)
        case .streamEnded(let end):
          guard isShown else { break }
          note(end.stream, of: reactor)
        case .jump(let jump):
          // Drawn on a stream's lane, named for who asked for it (see `TimelineLanes`).
          guard isShown else { break }
          note("external " + (jump.external ?? "command"), of: reactor)
        default:
          break
        }
      case .gap(let gap):
        guard isShown, !outline.diagram.groups.isEmpty else { break }
        columns += 1
        dropped += gap.droppedEvents
      case .released(let reactor):
        // Its effects still open end at the last column before the release.
        let ended = open.keys.filter { $0.reactor == reactor }
        for key in ended {
          guard let start = open.removeValue(forKey: key), isShown, columns > 0 else { continue }
          if page(of: columns - 1) > page(of: start.column) {
            laterEnds[start] = (columns - 1, nil)
          }
        }
      case .end:
        break
      }
    }
    title = outline.diagram.title
    groups = outline.diagram.groups.map { group in
      var group = group
      group.lanes.streams = streams[group.reactor] ?? []
      return group
    }
    introducedReactorIDs = introduced
    eventCount = columns
    droppedEventCount = dropped
    self.eventsPerPage = size
    self.laterEnds = laterEnds
    self.window = window
    self.reader = try SessionReader(path: path)
    accumulator = TimelineAccumulator(header: self.reader.header, reactors: reactors)
  }

  /// Checks that a page is within `limit`.
  /// - Throws: ``TimelineDiagramError/tooLarge(events:eventsPerPage:limit:)``.
  public func checkSize(limit: TimelineSizeLimit = .standard) throws(TimelineDiagramError) {
    guard min(eventsPerPage, eventCount) <= limit.maximumEventsPerPage else {
      throw .tooLarge(events: eventCount, eventsPerPage: eventsPerPage, limit: limit)
    }
  }

  /// Draws the next page, for the ``LayoutEngine/nop`` engine.
  /// - Returns: The page's graph, or `nil` after the last page.
  /// - Throws: ``TraceReadError`` when the file cannot be read.
  public mutating func next() throws(TraceReadError) -> DOTGraph? {
    guard !isDone else { return nil }
    let offset = (nextPage - 1) * eventsPerPage
    while true {
      let next: SessionEvent?
      if let waiting {
        next = waiting
        self.waiting = nil
      } else {
        next = try reader.next()
      }
      guard let event = next else { break }
      if event.sequence > window.upperBound { break }
      let isShown = window.contains(event.sequence)
      if isShown && accumulator.diagram.columns.count == eventsPerPage
        && takesColumn(event)
      {
        // The first event of the next page.
        waiting = event
        return finishPage(offset: offset)
      }
      accumulator.add(event, isShown: isShown, state: reader.currentState(of:))
    }
    isDone = true
    return finishPage(offset: offset)
  }

  /// Whether `event`, shown, takes a column: an event of a reactor drawn, or a gap.
  private func takesColumn(_ event: SessionEvent) -> Bool {
    switch event.kind {
    case .reactor(let reactor, _): accumulator.draws(reactor)
    case .gap: !accumulator.diagram.groups.isEmpty
    case .introduced, .released, .end: false
    }
  }

  /// The page just read, drawn; the accumulator starts the next one.
  private mutating func finishPage(offset: Int) -> DOTGraph {
    var page = accumulator.finished { reactor, effect in
      let start = EffectStart(
        effect: EffectKey(reactor: reactor, id: effect.id),
        column: effect.start.map { $0 + offset })
      return laterEnds[start].map { ($0.end - offset, $0.outcome) }
    }
    // Every group of the window, on every page: those not yet introduced are idle.
    let drawn = Dictionary(uniqueKeysWithValues: page.groups.map { ($0.reactor, $0.lanes) })
    page.groups = groups.map { group in
      var group = group
      let streams = group.lanes.streams
      group.lanes = drawn[group.reactor] ?? TimelineLanes()
      group.lanes.streams = streams
      return group
    }
    let graph = page.page(page.columns.indices, number: nextPage, of: pageCount)
    nextPage += 1
    accumulator.startPage(at: eventsPerPage)
    return graph
  }
}
