import ReactorStateMachines
import ReactorTracing

extension TimelineDiagram {
  /// The vertical distance between two lanes, in points.
  static let laneHeight = 72.0

  /// The narrowest box of an event, in points.
  static let narrowestBox = 80.0

  /// The width of a column with no box (an effect starting or ending), in points.
  static let emptyColumn = 44.0

  /// The widest box of an event, in points; longer text wraps, then ends in `…`.
  static let widestBox = 176.0

  /// The space between a box's border and its text, both sides together, in points.
  static let boxPadding = 12.0

  /// The width of the lane titles at the left, in points.
  static let laneTitleWidth = 112.0

  /// Returns the whole diagram as one graph, for the ``LayoutEngine/nop`` engine.
  ///
  /// - Returns: A graph with every node pinned.
  public func dotGraph() -> DOTGraph {
    page(columns.indices, number: 1, of: 1)
  }

  /// Splits the diagram into graphs of at most `eventsPerPage` events each, for the
  /// ``LayoutEngine/nop`` engine.
  ///
  /// Effects that cross a page boundary are drawn on both pages, open on the cut side.
  ///
  /// - Parameter eventsPerPage: The most events on one page; at least 1.
  /// - Returns: One graph per page, at least one.
  public func pages(eventsPerPage: Int) -> [DOTGraph] {
    let ranges = pageRanges(eventsPerPage: eventsPerPage)
    return ranges.enumerated().map { index, range in
      page(range, number: index + 1, of: ranges.count)
    }
  }

  /// Splits the diagram into as few pages as keep each at most `maximumWidth` points wide,
  /// for formats that cannot hold a wider picture (a PNG is at most 32,767 pixels wide).
  ///
  /// - Parameter maximumWidth: The widest page, in points; at least one event goes on a page.
  /// - Returns: One graph per page, at least one.
  public func pages(maximumWidth: Double) -> [DOTGraph] {
    let ranges = WidthPaging.ranges(count: columns.count, maximumWidth: maximumWidth) {
      width(of: $0)
    }
    return ranges.enumerated().map { index, range in
      page(range, number: index + 1, of: ranges.count)
    }
  }

  /// The width in points of the widest page when split into pages of `eventsPerPage` events,
  /// or of the whole diagram when `nil`.
  public func width(eventsPerPage: Int? = nil) -> Double {
    guard let eventsPerPage else { return width(of: columns.indices) }
    return pageRanges(eventsPerPage: eventsPerPage).map(width(of:)).max() ?? 0
  }

  private func pageRanges(eventsPerPage: Int) -> [Range<Int>] {
    let size = max(eventsPerPage, 1)
    return stride(from: 0, to: max(columns.count, 1), by: size).map {
      $0..<min($0 + size, columns.count)
    }
  }

  /// The width of a page of `range`, in points: lane titles, columns and margins.
  func width(of range: Range<Int>) -> Double {
    let layout = PageLayout(self, range)
    let span =
      (layout.axis.centers.last ?? 0) + (layout.widths.last ?? 0) / 2
      + (layout.widths.first ?? 0) / 2
    // Lane titles and their gap, the columns, the axis's arrow, the padding on both sides.
    return Self.laneTitleWidth + 16 + span + 12 + 2 * 0.3 * 72
  }

  /// The texts of one page's events, wrapped into their boxes, and where the columns go: each
  /// as wide as the widest reactor needs.
  struct PageLayout {
    var widths: [Double]
    var axis: TimeAxis
    /// Each group's wrapped texts, by the index of their mark.
    var texts: [[Int: [String]]]

    init(_ timeline: TimelineDiagram, _ range: Range<Int>) {
      var widths = Array(repeating: TimelineDiagram.emptyColumn, count: range.count)
      texts = []
      for group in timeline.groups {
        let measured = group.lanes.measure(range)
        for index in widths.indices { widths[index] = max(widths[index], measured.widths[index]) }
        texts.append(measured.texts)
      }
      self.widths = widths
      axis = TimeAxis(times: range.map { timeline.columns[$0].time }, widths: widths)
    }
  }

  /// A mark's text lines before wrapping, its font size and how many lines it may take.
  static func content(of mark: TimelineLanes.Mark) -> (text: [String], fontSize: Double, lines: Int)
  {
    switch mark {
    case .action(_, let label, let stream):
      return ([(stream.map { $0 + ": " } ?? "") + DescriptionText.boxed(label)], 9, 2)
    case .mutation(_, let label, _):
      return ([DescriptionText.boxed(label)], 9, 2)
    case .streamEnd(_, let error):
      return (["end " + (error.map { "✗ " + $0 } ?? "✓")], 9, 2)
    case .stateChange(let changes):
      return (changes.isEmpty ? ["(unchanged)"] : changes, 8, 4)
    case .gap(let dropped):
      return (["⋯ \(dropped) dropped"], 9, 2)
    }
  }

  /// The narrowest box width that shows `text` in `lines` lines, and the lines: each piece
  /// of `text` starts a line and wraps at token boundaries; what does not fit ends in `…`,
  /// or `… n more` for pieces left over.
  static func fit(_ text: [String], fontSize: Double, lines: Int) -> (Double, [String]) {
    let text = text.map(DOTEscaping.boundingLines)
    let widest = text.map { TextWidth.points($0, fontSize: fontSize) }.max() ?? 0
    var width = min(max(narrowestBox, widest + boxPadding), widestBox)
    // Most labels fit on a line each: nothing to wrap.
    if text.count <= lines && widest + boxPadding <= width + 0.01
      && !text.contains(where: { $0.contains(where: \.isNewline) })
    {
      return (width, text)
    }
    while true {
      let wrapped = wrap(text, width: width - boxPadding, fontSize: fontSize, lines: lines)
      if width >= widestBox || !wrapped.isCut { return (width, wrapped.lines) }
      width = min(width + 16, widestBox)
    }
  }

  private static func wrap(
    _ text: [String], width: Double, fontSize: Double, lines: Int
  ) -> (lines: [String], isCut: Bool) {
    var result: [String] = []
    var isCut = false
    for (index, piece) in text.enumerated() {
      let left = lines - result.count
      let isLastRoom = left == 1 && index < text.count - 1
      if left == 0 || isLastRoom {
        result.append("… \(text.count - index) more")
        isCut = true
        break
      }
      let wrapped = TextWidth.wrapped(piece, width: width, fontSize: fontSize, lines: left)
      if wrapped.last?.hasSuffix("…") == true { isCut = true }
      result += wrapped
    }
    return (result, isCut)
  }

  /// The graph of the columns in `range`, page `number` of `pageCount`.
  func page(_ range: Range<Int>, number: Int, of pageCount: Int) -> DOTGraph {
    var graph = Self.emptyPage()
    graph.label = .text(Self.title(title, columns, range, number: number, of: pageCount))
    let layout = PageLayout(self, range)
    // The lanes of a trace of one reactor are drawn whatever happens on the page.
    let active =
      groupsReactors
      ? groups.indices.filter { groups[$0].lanes.isActive(in: range) } : Array(groups.indices)
    let idle = groups.indices.filter { !active.contains($0) }
    let plans = active.map {
      TimelineLanes.LanePlan(groups[$0].lanes, range, includesEmptyLanes: !groupsReactors)
    }
    var bases: [Int] = []
    var laneCount = 0
    for plan in plans {
      bases.append(laneCount)
      laneCount += max(plan.count, 1)
    }
    let idleLane = idle.isEmpty ? nil : laneCount
    if !idle.isEmpty { laneCount += 1 }
    let frame = Frame(range: range, layout: layout, laneCount: max(laneCount, 1))

    // Lane titles, each reactor's group under its name.
    for (order, plan) in plans.enumerated() {
      Self.drawTitles(plan.titles, base: bases[order], in: frame, into: &graph)
    }
    if let idleLane { Self.drawTitles(["idle"], base: idleLane, in: frame, into: &graph) }
    var separators: [Double] = []
    if groupsReactors {
      let groupTitleWidth = Self.laneTitleWidth + 40
      graph.setNodeDefaults([
        "shape": "plaintext", "style": "", "width": .string(Self.inches(groupTitleWidth)),
        "height": "0.34", "fontsize": "10", "fontcolor": "#1f3b5c",
      ])
      for (order, index) in active.enumerated() {
        let boundary = frame.y(bases[order]) + Self.laneHeight / 2
        let lines = TextWidth.wrapped(
          groups[index].title, width: groupTitleWidth - 4, fontSize: 10, lines: 2)
        graph.addNode(
          label: .text(lines.joined(separator: "\n")),
          attributes: [
            "pos": frame.pos(frame.titleX + 20, boundary),
            "tooltip": .string("reactor #\(groups[index].reactor): \(groups[index].title)"),
          ])
        if order > 0 { separators.append(boundary) }
      }
    }
    if let idleLane { separators.append(frame.y(idleLane) + Self.laneHeight / 2) }
    Self.drawAxis(columns, in: frame, bottomLane: frame.laneCount - 1, into: &graph)
    // A thin line between two reactors' lanes.
    if !separators.isEmpty {
      graph.setNodeDefaults([
        "shape": "point", "style": "invis", "width": "0.01", "height": "0.01",
      ])
    }
    for y in separators {
      let start = graph.addNode(label: "", attributes: ["pos": frame.pos(frame.left - 8, y)])
      let end = graph.addNode(label: "", attributes: ["pos": frame.pos(frame.right + 8, y)])
      graph.addEdge(
        from: start, to: end,
        attributes: ["color": "gray80", "arrowhead": "none", "tooltip": "next reactor"])
    }

    var drawn: [Int: TimelineLanes.DrawnNodes] = [:]
    for (order, index) in active.enumerated() {
      drawn[groups[index].reactor] = groups[index].lanes.drawContents(
        plans[order], base: bases[order], texts: layout.texts[index], in: frame, into: &graph)
    }
    if let idleLane {
      let text =
        idle.map { groups[$0].title }.joined(separator: ", ") + ": nothing on this page"
      let width = min(
        max(frame.right - frame.left, 200), TextWidth.points(text, fontSize: 9) + 12)
      let lines = TextWidth.wrapped(text, width: width - 8, fontSize: 9, lines: 2)
      graph.setNodeDefaults([
        "shape": "plaintext", "style": "", "fontsize": "9", "fontcolor": "gray40",
        "height": "0.34", "width": .string(Self.inches(width)),
      ])
      graph.addNode(
        label: .text(lines.joined(separator: "\n")),
        attributes: [
          "pos": frame.pos(frame.left + width / 2, frame.y(idleLane)),
          "tooltip": .string(text),
        ])
    }
    drawCauses(between: drawn, into: &graph)
    Self.drawLegend(in: frame, bottomLane: frame.laneCount - 1, into: &graph)
    return graph
  }

  /// Dashed orange arrows for the causes whose action and target are both on the page.
  private func drawCauses(
    between drawn: [Int: TimelineLanes.DrawnNodes], into graph: inout DOTGraph
  ) {
    for cause in causes {
      guard let action = cause.from.action,
        let source = drawn[cause.from.reactor]?.actions[action],
        let nodes = drawn[cause.reactor]
      else { continue }
      let target: DOTNode.ID?
      let targetName: String
      switch cause.target {
      case .action(let id):
        target = nodes.actions[id]
        targetName = "action #\(id)"
      case .mutation(let id):
        target = nodes.mutations[id]
        targetName = "mutation #\(id)"
      }
      guard let target else { continue }
      graph.addEdge(
        from: source, to: target,
        attributes: [
          "color": "#d9822b", "style": "dashed", "penwidth": "1.3", "arrowsize": "0.7",
          "tooltip": .string(
            "reactor \(cause.from.reactor) action #\(action) → reactor \(cause.reactor) "
              + targetName),
        ])
    }
  }

  /// A page with the attributes every timeline page has, and no node yet.
  static func emptyPage() -> DOTGraph {
    DOTGraph(
      attributes: [
        "splines": "line", "outputorder": "edgesfirst", "fontname": "Helvetica",
        "fontsize": "13", "labelloc": "t", "labeljust": "l", "pad": "0.3",
      ],
      nodeAttributes: [
        "fontname": "Helvetica", "fontsize": "9", "fixedsize": "true", "style": "filled",
        "shape": "box", "penwidth": "1",
      ],
      edgeAttributes: ["color": "#5b7da8", "arrowsize": "0.5", "penwidth": "0.8"]
    )
  }

  /// `feed  ·  events #7–#12, 300 ms to 1.2 s  ·  page 2 of 3`.
  static func title(
    _ name: String, _ columns: [Column], _ range: Range<Int>, number: Int, of pageCount: Int
  ) -> String {
    var title = name
    if let first = range.first, let last = range.last {
      title += "  ·  events #\(columns[first].sequence)–#\(columns[last].sequence)"
      let (start, end) = (columns[first].time, columns[last].time)
      title += start == end ? ", at " + Self.format(start) : ", " + Self.format(start) + " to "
      title += start == end ? "" : Self.format(end)
    }
    if pageCount > 1 { title += "  ·  page \(number) of \(pageCount)" }
    return title
  }

  /// Where a page's columns and lanes are.
  struct Frame {
    var range: Range<Int>
    var layout: PageLayout
    var laneCount: Int

    func y(_ lane: Int) -> Double { Double(laneCount - lane) * TimelineDiagram.laneHeight }
    func x(_ column: Int) -> Double { layout.axis.centers[column - range.lowerBound] }
    func width(_ column: Int) -> Double { layout.widths[column - range.lowerBound] }
    func pos(_ x: Double, _ y: Double) -> DOTValue {
      .string(TimelineDiagram.number(x) + "," + TimelineDiagram.number(y) + "!")
    }
    var left: Double { range.isEmpty ? 0 : x(range.lowerBound) - width(range.lowerBound) / 2 }
    var right: Double {
      range.isEmpty ? 0 : x(range.upperBound - 1) + width(range.upperBound - 1) / 2
    }
    var titleX: Double { left - 16 - TimelineDiagram.laneTitleWidth / 2 }
  }

  /// Lane titles at the left edge, the first at lane `base`.
  static func drawTitles(
    _ titles: [String], base: Int, in frame: Frame, into graph: inout DOTGraph
  ) {
    // Nodes come in runs of one kind each, whose shared attributes are written once: a
    // timeline has thousands of nodes of a kind. Kinds overlap only where a later kind is
    // meant to be drawn on top (mutations on effect bars).
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "width": .string(Self.inches(Self.laneTitleWidth)),
      "height": "0.36", "fontsize": "10", "fontcolor": "gray25",
    ])
    for (lane, title) in titles.enumerated() {
      let lines = TextWidth.wrapped(title, width: Self.laneTitleWidth - 4, fontSize: 10, lines: 2)
      graph.addNode(
        label: .text(lines.joined(separator: "\n")),
        attributes: ["pos": frame.pos(frame.titleX, frame.y(base + lane))])
    }
  }

  /// The time axis: a line with round ticks, each event's number and time under it, and the
  /// compressed idle gaps down to `bottomLane`.
  static func drawAxis(
    _ columns: [Column], in frame: Frame, bottomLane: Int, into graph: inout DOTGraph
  ) {
    let range = frame.range
    let layout = frame.layout
    let axisY = frame.y(-1) + 6
    if !range.isEmpty {
      graph.setNodeDefaults([
        "shape": "point", "style": "invis", "width": "0.01", "height": "0.01", "fontsize": "7",
      ])
      let axisStart = graph.addNode(label: "", attributes: ["pos": frame.pos(frame.left, axisY)])
      let axisEnd = graph.addNode(
        label: "", attributes: ["pos": frame.pos(frame.right + 8, axisY)])
      graph.addEdge(
        from: axisStart, to: axisEnd,
        attributes: ["color": "gray55", "arrowsize": "0.4", "tooltip": "time"])
    }
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "width": "0.8", "height": "0.3", "fontsize": "8",
      "fontcolor": "gray30",
    ])
    for tick in layout.axis.ticks {
      // The tick's mark, `┴`, stands on the axis under its time.
      let text = Self.format(tick.time)
      var attributes: [String: DOTValue] = ["pos": frame.pos(tick.x, axisY + 9)]
      if let width = Self.widthFitting(text, fontSize: 8, defaultWidth: 0.8) {
        attributes["width"] = .string(width)
      }
      graph.addNode(label: .text(text + "\n┴"), attributes: attributes)
    }
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "width": "0.6", "height": "0.3", "fontsize": "7",
      "fontcolor": "gray45",
    ])
    var lastTime: Duration?
    for column in range {
      let time = columns[column].time
      var tick = "#\(columns[column].sequence)"
      var attributes: [String: DOTValue] = ["pos": frame.pos(frame.x(column), axisY - 16)]
      if time != lastTime {
        let text = Self.format(time)
        tick += "\n" + text
        if let width = Self.widthFitting(text, fontSize: 7, defaultWidth: 0.6) {
          attributes["width"] = .string(width)
        }
      }
      lastTime = time
      graph.addNode(label: .text(tick), attributes: attributes)
    }
    if !layout.axis.gaps.isEmpty {
      let top = axisY - 30
      let bottom = frame.y(bottomLane) - Self.laneHeight / 2
      graph.setNodeDefaults([
        "shape": "box", "style": "dashed,filled", "fillcolor": "#f3f3f3", "color": "gray70",
        "width": .string(Self.inches(TimeAxis.gapWidth - 20)),
        "height": .string(Self.inches(top - bottom)), "fontsize": "7", "fontcolor": "gray35",
      ])
      for gap in layout.axis.gaps {
        let idle = "idle\n" + Self.format(gap.duration)
        graph.addNode(
          label: .text(idle),
          attributes: [
            "pos": frame.pos(gap.x, (top + bottom) / 2),
            "tooltip": .string("nothing happened for " + Self.format(gap.duration)),
          ])
      }
    }
  }

  /// The legend of effect outcomes, under the lanes at the left.
  static func drawLegend(in frame: Frame, bottomLane: Int, into graph: inout DOTGraph) {
    let legendY = frame.y(bottomLane) - Self.laneHeight * 0.85
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "width": .string(Self.inches(Self.laneTitleWidth)),
      "height": "0.3", "fontsize": "9", "fontcolor": "gray25",
    ])
    graph.addNode(label: "effects:", attributes: ["pos": frame.pos(frame.titleX, legendY)])
    graph.setNodeDefaults([
      "shape": "box", "width": "0.95", "height": "0.26", "fontsize": "8", "fontcolor": "black",
    ])
    let outcomes: [TraceEvent.Outcome?] = [.finished, .cancelled, .failed(""), nil]
    for (index, outcome) in outcomes.enumerated() {
      let (fill, color, style, text) = Self.appearance(of: outcome)
      graph.addNode(
        label: .text(outcome.map { if case .failed = $0 { "failed" } else { text } } ?? text),
        attributes: [
          "pos": frame.pos(frame.left + 34 + Double(index) * 76, legendY),
          "fillcolor": .string(fill), "color": .string(color), "style": .string(style),
          "fontcolor": .string(color),
        ])
    }
  }

  /// `search #3 · cancelled`, after `… ` when the effect started before the page.
  ///
  /// Cut to ``DOTEscaping/lineLimit`` characters, as it is drawn: the bar's last column is
  /// widened to fit it.
  static func barTitle(_ effect: TimelineLanes.Effect, isCut: Bool) -> String {
    DOTEscaping.boundingLines(
      (isCut ? "… " : "") + (effect.name ?? "effect") + " #\(effect.id) · "
        + appearance(of: effect).outcome)
  }

  /// How an effect's bar looks: by its outcome, or, when its reactor's release ended it, as
  /// cancelled (the release cancels it) and saying so.
  static func appearance(
    of effect: TimelineLanes.Effect
  ) -> (fill: String, color: String, style: String, outcome: String) {
    guard effect.isEndedByRelease else { return appearance(of: effect.outcome) }
    var look = appearance(of: .cancelled)
    look.outcome = "released"
    return look
  }

  static func appearance(
    of outcome: TraceEvent.Outcome?
  ) -> (fill: String, color: String, style: String, outcome: String) {
    switch outcome {
    case .finished: ("#e3f4e1b0", "#2e7d32", "rounded,filled", "finished")
    case .cancelled: ("#eeeeeeb0", "#6d6d6d", "rounded,dashed,filled", "cancelled")
    case .failed(let error):
      ("#fde0dcb0", "#c62828", "rounded,bold,filled", "failed: " + error.cutAtToken(to: 40))
    case nil: ("#fff4e0b0", "#e65100", "rounded,dotted,filled", "running")
    }
  }

  /// `0 ms`, `300 ms`, `1.2 s`, `2 min 5 s`.
  static func format(_ time: Duration) -> String {
    let (seconds, attoseconds) = time.components
    let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    if milliseconds < 1_000 { return "\(milliseconds) ms" }
    if milliseconds < 60_000 {
      let tenths = milliseconds / 100
      return "\(tenths / 10)" + (tenths % 10 == 0 ? "" : ".\(tenths % 10)") + " s"
    }
    return "\(milliseconds / 60_000) min \(milliseconds % 60_000 / 1_000) s"
  }

  /// The width in inches of a fixed-size box that holds `text` when the default one does
  /// not (a time such as `1000 min 10 s`), or `nil` when the default fits.
  static func widthFitting(_ text: String, fontSize: Double, defaultWidth: Double) -> String? {
    let needed = TextWidth.points(text, fontSize: fontSize) + 4
    guard needed > defaultWidth * 72 else { return nil }
    return inches(needed)
  }

  static func inches(_ points: Double) -> String {
    let hundredths = Int((points / 72 * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
  }

  /// A coordinate with at most one decimal, so DOT text stays short and stable.
  static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = abs(tenths)
    return sign + "\(magnitude / 10)" + (magnitude % 10 == 0 ? "" : ".\(magnitude % 10)")
  }
}

extension Array {
  /// The index of the first element for which `belongs` holds, in an array where it holds
  /// for a suffix.
  func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if belongs(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
