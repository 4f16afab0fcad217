import ArgumentParser
import ReactorDiagrams
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render timeline`: actions, effect lifetimes, mutations and states over
  /// time.
  struct Timeline: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Draw a timeline of actions, effects, mutations and state changes.",
      discussion: """
        Time flows left to right: a lane for actions, one per concurrent effect (finished, \
        cancelled and failed effects drawn differently), one per external stream, and the \
        state changes; arrows lead from each action to its mutations. A time axis with round \
        ticks runs along the top, and long idle periods are compressed into marked gaps. \
        Long traces can be cut with --from/--to and split into pages with --page-size. A \
        session gets a group of lanes per reactor on one time axis, with dashed orange arrows \
        for causes across reactors; reactors with nothing on a page are collapsed into one \
        line, and --reactor picks some (by id). A PNG \
        holds at most 32,767 pixels a side: a wider timeline is split into pages \
        automatically, and a --page-size too large for PNG is refused with exit code 2.
        """
    )

    /// The trace to draw.
    @Argument(help: "A trace file, or a session.")
    var trace: String

    /// The reactors and events to draw, and the events per page.
    @OptionGroup var window: EventWindowOptions

    /// The format, or `nil` to take it from the output file's extension.
    @Option(
      help: "dot, svg, png or pdf (default: from the output's extension: .dot .svg .png .pdf).")
    var format: String?

    /// The output.
    @OptionGroup var diagram: DiagramOptions

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      try window.validate(output: diagram.output)
    }

    /// Lays out the timeline and writes it, one file per page.
    func run() async throws {
      try await TimelineRequest(
        trace: trace, reactors: window.reactors, from: window.from, to: window.to,
        pageSize: window.pageSize, format: format,
        diagram: diagram
      ).exit()
    }

    /// The widest PNG page in points: 32,767 pixels at Graphviz's 96 pixels per inch, less a
    /// margin.
    static let widestPNG = 24_000.0

    /// `out.svg` → `out-2.svg`.
    static func path(_ path: String, page: Int) -> String {
      let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
      guard let dot = path[slash...].lastIndex(of: "."), dot != slash else {
        return "\(path)-\(page)"
      }
      return "\(path[..<dot])-\(page)\(path[dot...])"
    }
  }
}

/// What `render timeline` was asked to do.
struct TimelineRequest: CommandRequest {
  var trace: String
  var reactors: [Int] = []
  var from: Int?
  var to: Int?
  var pageSize: Int?
  var format: String?
  var diagram: DiagramOptions

  /// Lays out the timeline, writes its pages, reports to `report`, and returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let format = try diagram.resolvedFormat(
      format, accepting: [.dot, .svg, .png, .pdf], for: "timeline")
    let engine = try diagram.resolvedEngine(default: .nop)
    try OutputFiles.refuse([diagram.output], ifAnyIs: [trace])
    let range = (from != nil || to != nil) ? (from ?? 1)...(to ?? .max) : nil
    let chosen = reactors.isEmpty ? nil : Set(reactors)
    let reader = try SessionReader(path: trace)
    if let pageSize, format != .png {
      // DOT, SVG and PDF pages are drawn and written one at a time, so that memory follows
      // the page size and not the file. (PNG pages are measured against the widest PNG
      // first, over the whole timeline.)
      var pages = try TimelinePages(
        path: trace, reader: reader, sequences: range, reactors: chosen, eventsPerPage: pageSize)
      try finishReading(
        reader, introduced: pages.introducedReactorIDs, shown: pages.eventCount, range: range)
      try pages.checkSize()
      return try write(
        pageCount: pages.pageCount, eventCount: pages.eventCount, format: format, engine: engine,
        report: report
      ) { try pages.next() }
    }
    let timeline = try TimelineDiagram(reader: reader, sequences: range, reactors: chosen)
    try finishReading(
      reader, introduced: timeline.introducedReactorIDs, shown: timeline.eventCount, range: range)
    try timeline.checkSize(eventsPerPage: pageSize)
    let (pages, note) = try split(timeline, format: format)
    var left = pages[...]
    return try write(
      pageCount: pages.count, eventCount: timeline.eventCount, note: note, format: format,
      engine: engine, report: report
    ) { left.popFirst() }
  }

  /// Reads the rest of the file, refuses `--reactor` ids it does not have and a `--from/--to`
  /// that shows no event, and prints the reader's warnings.
  @MainActor
  private func finishReading(
    _ reader: SessionReader, introduced: [Int], shown: Int, range: ClosedRange<Int>?
  ) throws {
    try SessionViewReading.finish(
      reader, introduced: introduced, reactors: reactors, range: range, shownEvents: shown,
      from: from, to: to, trace: trace, strict: diagram.strictness.strict, namingTraces: true)
  }

  /// Splits a timeline into pages as asked, and as a PNG needs: the pages, and the note that
  /// says why when the timeline was split for PNG.
  private func split(
    _ timeline: TimelineDiagram, format: DiagramFormat
  ) throws -> (pages: [DOTGraph], note: String) {
    let widestPNG = ReactorTraceCommand.Render.Timeline.widestPNG
    if format == .png {
      let widest = timeline.width(eventsPerPage: pageSize)
      if let pageSize, widest > widestPNG {
        throw CommandFailure.unusableInput(
          "a page of \(pageSize) events would be \(Int(widest * 4 / 3)) pixels wide, more "
            + "than a PNG holds (32,767); use a smaller --page-size, or write SVG")
      }
      if pageSize == nil && widest > widestPNG {
        let pages = timeline.pages(maximumWidth: widestPNG)
        return (
          pages, " (split into \(pages.count) pages: a PNG holds at most 32,767 pixels a side)"
        )
      }
    }
    return (pageSize.map { timeline.pages(eventsPerPage: $0) } ?? [timeline.dotGraph()], "")
  }

  /// Renders the `pageCount` pages `next` draws one at a time, writes them (all of them, or
  /// none) and reports them.
  @MainActor
  private func write(
    pageCount: Int, eventCount: Int, note: String = "", format: DiagramFormat,
    engine: LayoutEngine, report: any TextOutput, next: () throws -> DOTGraph?
  ) throws -> ExitCode {
    // Pages are named after -o: beside a device or FIFO they would be new files there.
    if pageCount > 1 { try OutputFiles.refuseSpecialFile(diagram.output, for: "pages") }
    // Every page goes to its temporary file first: all of them are put in place, or none.
    let batch = OutputFiles.Batch(inputs: [trace])
    var written: [String] = []
    while let page = try next() {
      let path =
        pageCount == 1
        ? diagram.output
        : ReactorTraceCommand.Render.Timeline.path(diagram.output, page: written.count + 1)
      // Every node of a timeline has a fixed size and position: measuring its labels with
      // Pango would only cost time.
      let output = try DiagramFile.renderReportingWarnings(
        page, format: format, engine: engine, textMeasurement: .estimated)
      for warning in output.warnings {
        CommandFailure.printWarning("warning: \(path): \(warning)")
      }
      if pageCount == 1 {
        try OutputFiles.write(output.bytes, to: path, inputs: [trace])
      } else {
        try batch.add(output.bytes, to: path)
      }
      written.append(path)
    }
    try batch.commit()
    if diagram.output != OutputFiles.standardOutput {
      report.write("wrote \(written.joined(separator: ", ")): \(eventCount) events" + note)
    }
    return .success
  }
}
