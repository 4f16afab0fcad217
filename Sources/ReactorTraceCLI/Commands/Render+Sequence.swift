import ArgumentParser
import ReactorDiagrams
import ReactorTracing

extension ReactorTraceCommand.Render {
  /// `reactor-trace render sequence`: a session as a sequence diagram, time running down.
  struct Sequence: AsyncParsableCommand {
    /// The command's help.
    static let configuration = CommandConfiguration(
      abstract: "Draw a session as a sequence diagram: who sent what to whom.",
      discussion: """
        Participants along the top: the user, each reactor (by name or type, and its id) and \
        each named stream or service. Time runs down, one row per event: actions are \
        messages from the user, another reactor or a stream; effects are activation boxes \
        on their reactor's lifeline, closed by their outcome; mutations are self-messages \
        with what they changed in a note, or, when a stream element caused them, a message \
        from the effect that published it to the service and on to the reactor that merged \
        it. Reactors created by another appear where they were created; released ones end \
        in a cross. A trace of one reactor draws as a session of one. --reactor picks \
        reactors by id; --from/--to cut a window; --page-size splits into pages. Formats: \
        dot, svg, png, pdf, or mermaid (a sequenceDiagram).
        """
    )

    /// The session to draw.
    @Argument(help: "A session file (or a trace of one reactor).")
    var trace: String

    /// The reactors and events to draw, and the events per page.
    @OptionGroup var window: EventWindowOptions

    /// The format, or `nil` to take it from the output file's extension.
    @Option(
      help: """
        dot, svg, png, pdf or mermaid (default: from the output's extension: .dot .svg .png \
        .pdf .mmd).
        """)
    var format: String?

    /// The output.
    @OptionGroup var diagram: DiagramOptions

    /// Creates the command; ArgumentParser fills in the options.
    init() {}

    /// Checks the arguments before anything is read.
    func validate() throws {
      try window.validate(output: diagram.output)
    }

    /// Draws the session and writes it, one file per page.
    func run() async throws {
      try await SequenceRequest(
        trace: trace, reactors: window.reactors, from: window.from, to: window.to,
        pageSize: window.pageSize,
        format: format, diagram: diagram
      ).exit()
    }
  }
}

/// What `render sequence` was asked to do.
struct SequenceRequest: CommandRequest {
  var trace: String
  var reactors: [Int]
  var from: Int?
  var to: Int?
  var pageSize: Int?
  var format: String?
  var diagram: DiagramOptions

  /// The tallest PNG page in points: 32,767 pixels at Graphviz's 96 pixels per inch, less a
  /// margin.
  static let tallestPNG = 24_000.0

  /// Reads the session, lays out the diagram, writes its pages, reports to `report`, and
  /// returns the exit code.
  @MainActor
  func run(output report: any TextOutput) async throws -> ExitCode {
    let format = try diagram.resolvedFormat(
      format, accepting: DiagramFormat.allCases, for: "sequence diagram")
    let engine = try diagram.resolvedEngine(default: .nop)
    try OutputFiles.refuse([diagram.output], ifAnyIs: [trace])
    let range = (from != nil || to != nil) ? (from ?? 1)...(to ?? .max) : nil
    let reader = try SessionReader(path: trace)
    let sequence = try SequenceDiagram(
      reader: reader, sequences: range, reactors: reactors.isEmpty ? nil : Set(reactors))
    try SessionViewReading.finish(
      reader, introduced: sequence.introducedReactorIDs, reactors: reactors, range: range,
      shownEvents: sequence.eventCount, from: from, to: to, trace: trace,
      strict: diagram.strictness.strict)
    try sequence.checkSize(eventsPerPage: pageSize)
    if format == .mermaid {
      if pageSize != nil {
        throw CommandFailure.unusableInput(
          "a Mermaid sequence diagram is one page; leave out --page-size")
      }
      try OutputFiles.write(Array(sequence.mermaid().utf8), to: diagram.output, inputs: [trace])
      if diagram.output != OutputFiles.standardOutput {
        report.write("wrote \(diagram.output): \(sequence.eventCount) events")
      }
      return .success
    }
    var note = ""
    let pages: [DOTGraph]
    if format == .png {
      let tallest = sequence.height(eventsPerPage: pageSize)
      if let pageSize, tallest > Self.tallestPNG {
        throw CommandFailure.unusableInput(
          "a page of \(pageSize) events would be \(Int(tallest * 4 / 3)) pixels tall, more "
            + "than a PNG holds (32,767); use a smaller --page-size, or write SVG")
      }
      if pageSize == nil && tallest > Self.tallestPNG {
        pages = sequence.pages(maximumHeight: Self.tallestPNG)
        note = " (split into \(pages.count) pages: a PNG holds at most 32,767 pixels a side)"
      } else {
        pages = pageSize.map { sequence.pages(eventsPerPage: $0) } ?? [sequence.dotGraph()]
      }
    } else {
      pages = pageSize.map { sequence.pages(eventsPerPage: $0) } ?? [sequence.dotGraph()]
    }
    if pages.count > 1 { try OutputFiles.refuseSpecialFile(diagram.output, for: "pages") }
    let batch = OutputFiles.Batch(inputs: [trace])
    var written: [String] = []
    for (index, page) in pages.enumerated() {
      let path =
        pages.count == 1
        ? diagram.output : ReactorTraceCommand.Render.Timeline.path(diagram.output, page: index + 1)
      let output = try DiagramFile.renderReportingWarnings(
        page, format: format, engine: engine, textMeasurement: .estimated)
      for warning in output.warnings {
        CommandFailure.printWarning("warning: \(path): \(warning)")
      }
      if pages.count == 1 {
        try OutputFiles.write(output.bytes, to: path, inputs: [trace])
      } else {
        try batch.add(output.bytes, to: path)
      }
      written.append(path)
    }
    try batch.commit()
    if diagram.output != OutputFiles.standardOutput {
      report.write("wrote \(written.joined(separator: ", ")): \(sequence.eventCount) events" + note)
    }
    return .success
  }
}
