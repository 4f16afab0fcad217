public import ReactorTracing

/// A timeline split into pages of a fixed number of events, drawn one page at a time, so
/// that memory follows the page size, not the trace.
///
/// A first pass over the trace counts the events, finds the stream lanes and notes how the
/// effects that cross a page boundary end; a second pass draws each page as it is asked for.
/// The pages are the ones ``TimelineDiagram/pages(eventsPerPage:)`` makes of the whole
/// diagram, without holding it.
///
/// ```swift
/// let reader = try TraceReader(path: "long.trace.jsonl")
/// var pages = try TimelinePages(path: "long.trace.jsonl", reader: reader, eventsPerPage: 5_000)
/// while let page = try pages.next() {
///   let svg = try GraphvizRenderer().render(page, engine: .nop, format: .svg)
/// }
/// ```
public struct TimelinePages {
  /// The reactor the trace records.
  public let reactor: String
  /// How many events the pages show in all.
  public let eventCount: Int
  /// How many events the recorder dropped in the gaps shown.
  public let droppedEventCount: Int
  /// The most events on one page.
  public let eventsPerPage: Int
  /// How many pages there are: at least one.
  public var pageCount: Int { max(1, (eventCount + eventsPerPage - 1) / eventsPerPage) }

  /// An effect found in the first pass: its id and its column (`nil` before the window).
  private struct EffectStart: Hashable {
    var id: Int
    var column: Int?
  }

  private let streams: [String]
  /// How the effects open at the end of some page end: their column and outcome.
  private let laterEnds: [EffectStart: (end: Int, outcome: TraceEvent.Outcome)]
  private let window: ClosedRange<Int>
  private let reader: TraceReader
  private var accumulator: TimelineAccumulator
  /// The number of the next page, from 1, and its first column in the whole timeline.
  private var nextPage = 1
  private var isDone = false
  /// An event read past the end of the page before, for the next page.
  private var waiting: TraceEvent?

  /// Reads the whole trace through `reader` (so that its warnings and event count are
  /// complete) and opens `path` again for the pages.
  ///
  /// - Parameters:
  ///   - path: The trace file.
  ///   - reader: A reader of `path` that has read no event yet.
  ///   - sequences: The events to show, by `seq`; `nil` for all of them.
  ///   - eventsPerPage: The most events on one page; at least 1.
  /// - Throws: ``TraceReadError`` when the trace cannot be read.
  public init(
    path: String, reader: TraceReader, sequences: ClosedRange<Int>? = nil, eventsPerPage: Int
  ) throws(TraceReadError) {
    let size = max(eventsPerPage, 1)
    let window = sequences ?? Int.min...Int.max
    var columns = 0
    var dropped = 0
    var streams: [String] = []
    var streamSet: Set<String> = []
    var open: [Int: EffectStart] = [:]
    var laterEnds: [EffectStart: (end: Int, outcome: TraceEvent.Outcome)] = [:]
    func page(of column: Int?) -> Int { column.map { $0 / size } ?? -1 }
    var isPastWindow = false
    while let event = try reader.next() {
      // The rest is read only for what the reader notices at the end.
      if isPastWindow || event.sequence > window.upperBound {
        isPastWindow = true
        continue
      }
      let isShown = window.contains(event.sequence)
      let column = columns
      if isShown && TimelineAccumulator.takesColumn(event) { columns += 1 }
      switch event.kind {
      case .effectStarted(let start):
        open[start.effect] = EffectStart(id: start.effect, column: isShown ? column : nil)
      case .effectEnded(let end):
        guard let start = open.removeValue(forKey: end.effect), isShown else { break }
        if page(of: column) > page(of: start.column) {
          laterEnds[start] = (column, end.outcome)
        }
      case .mutation(let mutation):
        guard isShown, case .stream(let name) = mutation.cause else { break }
        if streamSet.insert(name).inserted { streams.append(name) }
      case .streamEnded(let end):
        guard isShown else { break }
        if streamSet.insert(end.stream).inserted { streams.append(end.stream) }
      case .gap(let gap):
        if isShown { dropped += gap.droppedEvents }
      default:
        break
      }
    }
    reactor = reader.header.reactor
    eventCount = columns
    droppedEventCount = dropped
    self.eventsPerPage = size
    self.streams = streams
    self.laterEnds = laterEnds
    self.window = window
    self.reader = try TraceReader(path: path)
    accumulator = TimelineAccumulator(
      reactor: reactor, initialState: self.reader.header.initialState)
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
  /// - Throws: ``TraceReadError`` when the trace cannot be read.
  public mutating func next() throws(TraceReadError) -> DOTGraph? {
    guard !isDone else { return nil }
    let offset = (nextPage - 1) * eventsPerPage
    while true {
      let next: TraceEvent?
      if let waiting {
        next = waiting
        self.waiting = nil
      } else {
        next = try reader.next()
      }
      guard let event = next else { break }
      if event.sequence > window.upperBound { break }
      let isShown = window.contains(event.sequence)
      if isShown && TimelineAccumulator.takesColumn(event)
        && accumulator.diagram.columns.count == eventsPerPage
      {
        // The first event of the next page.
        waiting = event
        return finishPage(offset: offset)
      }
      accumulator.add(event, isShown: isShown, stateAfter: reader.currentState)
    }
    isDone = true
    return finishPage(offset: offset)
  }

  /// The page just read, drawn; the accumulator starts the next one.
  private mutating func finishPage(offset: Int) -> DOTGraph {
    var page = accumulator.finished { effect in
      let start = EffectStart(id: effect.id, column: effect.start.map { $0 + offset })
      return laterEnds[start].map { ($0.end - offset, $0.outcome) }
    }
    page.streams = streams
    let graph = page.page(page.columns.indices, number: nextPage, of: pageCount)
    nextPage += 1
    accumulator.startPage(at: eventsPerPage)
    return graph
  }
}
