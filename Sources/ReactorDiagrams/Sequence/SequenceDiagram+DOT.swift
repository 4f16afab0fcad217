import ReactorTracing

extension SequenceDiagram {
  /// The width of the column of event numbers and times at the left, in points.
  static let eventColumnWidth = 52.0

  /// The height of a participant's box, in points.
  static let headerHeight = 34.0

  /// How far apart two effects of one reactor that overlap are drawn, in points.
  static let slotOffset = 7.0

  /// The width of an activation box, in points.
  static let activationWidth = 10.0

  /// Returns the whole diagram as one graph, for the ``LayoutEngine/nop`` engine.
  ///
  /// - Returns: A graph with every node pinned.
  public func dotGraph() -> DOTGraph {
    page(rows.indices, number: 1, of: 1)
  }

  /// Splits the diagram into graphs of at most `eventsPerPage` events each, for the
  /// ``LayoutEngine/nop`` engine.
  ///
  /// Each page shows the reactors alive on it; effects that cross a page boundary are drawn
  /// on both pages, open on the cut side.
  ///
  /// - Parameter eventsPerPage: The most events on one page; at least 1.
  /// - Returns: One graph per page, at least one.
  public func pages(eventsPerPage: Int) -> [DOTGraph] {
    let size = max(eventsPerPage, 1)
    let ranges = stride(from: 0, to: max(rows.count, 1), by: size).map {
      $0..<min($0 + size, rows.count)
    }
    return ranges.enumerated().map { page($1, number: $0 + 1, of: ranges.count) }
  }

  /// Splits the diagram into as few pages as keep each at most `maximumHeight` points tall,
  /// for formats that cannot hold a taller picture (a PNG is at most 32,767 pixels tall).
  ///
  /// - Parameter maximumHeight: The tallest page, in points; at least one event goes on a
  ///   page.
  /// - Returns: One graph per page, at least one.
  public func pages(maximumHeight: Double) -> [DOTGraph] {
    var ranges: [Range<Int>] = []
    var start = 0
    var height = 0.0
    for index in rows.indices {
      let rowHeight = Self.height(of: rows[index].step)
      if index > start, height + rowHeight > maximumHeight - Self.margins {
        ranges.append(start..<index)
        start = index
        height = 0
      }
      height += rowHeight
    }
    ranges.append(start..<rows.count)
    return ranges.enumerated().map { page($1, number: $0 + 1, of: ranges.count) }
  }

  /// The height in points of the tallest page when split into pages of `eventsPerPage`
  /// events, or of the whole diagram when `nil`.
  public func height(eventsPerPage: Int? = nil) -> Double {
    let size = max(eventsPerPage ?? rows.count, 1)
    var tallest = 0.0
    for start in stride(from: 0, to: max(rows.count, 1), by: size) {
      let page = rows[start..<min(start + size, rows.count)]
      tallest = max(tallest, page.reduce(0) { $0 + Self.height(of: $1.step) })
    }
    return tallest + Self.margins
  }

  /// The title, headers, legend and padding around the rows, in points.
  static let margins = 24 + headerHeight + 16 + 70.0

  // MARK: - Text

  /// The text of one row, fitted into boxes.
  struct RowText {
    /// The message's or self-message's label.
    var label: [String] = []
    var labelWidth = 0.0
    /// The note of what a mutation changed.
    var note: [String] = []
    var noteWidth = 0.0
  }

  static func text(of step: Step) -> RowText {
    var text = RowText()
    func setLabel(_ pieces: [String], fontSize: Double = 9, lines: Int = 2) {
      (text.labelWidth, text.label) = TimelineDiagram.fit(pieces, fontSize: fontSize, lines: lines)
    }
    switch step {
    case .action(_, _, let label, _, _):
      setLabel([DescriptionText.boxed(label)])
    case .mutation(_, _, let label, _, _, _, let changes):
      setLabel([DescriptionText.boxed(label)])
      (text.noteWidth, text.note) = TimelineDiagram.fit(
        changes.isEmpty ? ["(unchanged)"] : changes, fontSize: 8, lines: 4)
    case .effectStarted(_, let effect, _, let name):
      setLabel([(name ?? "effect") + " #\(effect)"], fontSize: 8, lines: 1)
    case .effectEnded(_, _, let outcome):
      setLabel([outcomeText(outcome)], fontSize: 8, lines: 2)
    case .streamEnded(_, _, let error):
      setLabel(["end " + (error.map { "✗ " + $0 } ?? "✓")])
    case .gap(let dropped):
      setLabel(["⋯ \(dropped) events dropped: the session is incomplete here"])
    case .created, .released:
      break
    }
    return text
  }

  static func outcomeText(_ outcome: TraceEvent.Outcome?) -> String {
    switch outcome {
    case .finished: "finished"
    case .cancelled: "cancelled"
    case .failed(let error): "failed: " + error
    case nil: "running"
    }
  }

  /// The height of a row, in points.
  static func height(of step: Step) -> Double {
    geometry(of: step, text: text(of: step)).height
  }

  /// Where things go in a row, downward from its top, in points.
  struct RowGeometry {
    var height: Double
    /// The line of the row's main arrow or anchor.
    var line: Double
    /// The line a stream element is published on, above the delivery.
    var publishLine = 0.0
    /// The centre of the label.
    var labelCenter = 0.0
    /// The centre of the note.
    var noteCenter = 0.0
    var noteHeight = 0.0
  }

  static let labelLine = 11.0
  static let noteLine = 10.0

  static func geometry(of step: Step, text: RowText) -> RowGeometry {
    let labelHeight = Double(text.label.count) * labelLine + 4
    let noteHeight = Double(text.note.count) * noteLine + 8
    switch step {
    case .action(let reactor, _, _, let sender, _) where sender == .reactor(reactor):
      return RowGeometry(
        height: max(labelHeight, 20) + 8, line: 6, labelCenter: 4 + labelHeight / 2)
    case .action, .streamEnded:
      return RowGeometry(
        height: labelHeight + 12, line: labelHeight + 6, labelCenter: 4 + labelHeight / 2)
    case .created:
      return RowGeometry(height: headerHeight + 12, line: 6 + headerHeight / 2)
    case .released:
      return RowGeometry(height: 20, line: 10)
    case .effectStarted, .effectEnded:
      return RowGeometry(
        height: labelHeight + 4, line: 2 + labelHeight / 2, labelCenter: 2 + labelHeight / 2)
    case .mutation(_, _, _, .stream, _, let publisher, _):
      let publish = publisher == nil ? 0.0 : 8.0
      let line = publish + labelHeight + 8
      return RowGeometry(
        height: line + 6 + noteHeight + 6, line: line, publishLine: publish == 0 ? 0 : 6,
        labelCenter: publish + 4 + labelHeight / 2, noteCenter: line + 6 + noteHeight / 2,
        noteHeight: noteHeight)
    case .mutation:
      let top = max(labelHeight, 20)
      return RowGeometry(
        height: 4 + top + 4 + noteHeight + 6, line: 6, labelCenter: 4 + labelHeight / 2,
        noteCenter: 4 + top + 4 + noteHeight / 2, noteHeight: noteHeight)
    case .gap:
      return RowGeometry(height: labelHeight + 16, line: 8 + labelHeight / 2)
    }
  }

  // MARK: - Pages

  /// A reactor's title: `list`, or its type; and its second line: `#1 · TaskAppListReactor`.
  func headerText(of participant: Participant) -> [String] {
    switch participant {
    case .user: ["user"]
    case .others: ["other reactors"]
    case .stream(let name): [name, "stream"]
    case .reactor(let id):
      if let reactor = reactors[id] {
        [
          reactor.name ?? reactor.type,
          "#\(id)" + (reactor.name == nil ? "" : " · " + reactor.type),
        ]
      } else {
        ["#\(id)"]
      }
    }
  }

  /// The attributes of a message's label drawn over other participants' lifelines: a
  /// nearly opaque white ground, drawn after the lines (`outputorder=edgesfirst`), so that
  /// no dashed lifeline runs through its text.
  static func acrossLifelines(_ tooltip: String) -> [String: DOTValue] {
    ["tooltip": .string(tooltip), "style": "filled", "fillcolor": "#ffffffe6"]
  }

  /// One page of the diagram, drawn in steps: its layout (``SequencePage``), then its
  /// headers, rows, lifelines and activations, and legend (``SequencePageDrawing``).
  private func page(_ range: Range<Int>, number: Int, of pageCount: Int) -> DOTGraph {
    var drawing = SequencePageDrawing(
      SequencePage(self, range: range), title: pageTitle(range, number: number, of: pageCount))
    drawing.drawHeaders()
    let bottom = drawing.drawRows()
    drawing.drawLifelinesAndActivations(bottom: bottom)
    drawing.drawLegend(bottom: bottom)
    return drawing.graph
  }

  /// A page's title: the diagram's, the page's events and times, and its number.
  private func pageTitle(_ range: Range<Int>, number: Int, of pageCount: Int) -> String {
    var title = self.title
    if let first = range.first, let last = range.last {
      title += "  ·  events #\(rows[first].sequence)–#\(rows[last].sequence)"
      let (start, end) = (rows[first].time, rows[last].time)
      title +=
        start == end
        ? ", at " + TimelineDiagram.format(start)
        : ", " + TimelineDiagram.format(start) + " to " + TimelineDiagram.format(end)
    }
    if pageCount > 1 { title += "  ·  page \(number) of \(pageCount)" }
    return title
  }

  /// A reactor's effect, as a key.
  struct EffectKey: Hashable {
    var reactor: Int
    var effect: Int
  }

  /// A reactor's action, as a key.
  struct ActionKey: Hashable {
    var reactor: Int
    var action: Int
  }

  static func appearance(
    of outcome: TraceEvent.Outcome?
  ) -> (fill: String, color: String, style: String) {
    switch outcome {
    case .finished: ("#e3f4e1", "#2e7d32", "rounded,filled")
    case .cancelled: ("#eeeeee", "#6d6d6d", "rounded,dashed,filled")
    case .failed: ("#fde0dc", "#c62828", "rounded,bold,filled")
    case nil: ("#fff4e0", "#e65100", "rounded,dotted,filled")
    }
  }
}
