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

  /// The texts of one page's events, wrapped into their boxes, and where the columns go.
  struct PageLayout {
    var widths: [Double]
    var axis: TimeAxis
    var texts: [Int: [String]] = [:]

    /// A layout of columns already measured: the widest of several reactors' in a session.
    init(widths: [Double], axis: TimeAxis) {
      self.widths = widths
      self.axis = axis
    }

    init(_ timeline: TimelineDiagram, _ range: Range<Int>) {
      var widths = Array(repeating: TimelineDiagram.emptyColumn, count: range.count)
      var texts: [Int: [String]] = [:]
      let start = timeline.marks.partitioningIndex { $0.column >= range.lowerBound }
      for index in start..<timeline.marks.count {
        let placed = timeline.marks[index]
        guard placed.column < range.upperBound else { break }
        let (text, fontSize, lines) = TimelineDiagram.content(of: placed.mark)
        let (width, wrapped) = TimelineDiagram.fit(text, fontSize: fontSize, lines: lines)
        widths[placed.column - range.lowerBound] = max(
          widths[placed.column - range.lowerBound], width)
        texts[index] = wrapped
      }
      // An effect's bar is as wide as its columns: widen its last one to fit its title.
      for effect in timeline.effects {
        let start = max(effect.start ?? range.lowerBound, range.lowerBound)
        let end = min(effect.end ?? (range.upperBound - 1), range.upperBound - 1)
        guard start <= end, start < range.upperBound, end >= range.lowerBound else { continue }
        let title = TimelineDiagram.barTitle(effect, isCut: effect.start.map { $0 < start } ?? true)
        let needed = TextWidth.points(title, fontSize: 8) + 20
        let span =
          widths[(start - range.lowerBound)...(end - range.lowerBound)].reduce(0, +)
          + Double(end - start) * TimeAxis.padding
        if span < needed { widths[end - range.lowerBound] += needed - span }
      }
      self.widths = widths
      self.texts = texts
      axis = TimeAxis(times: range.map { timeline.columns[$0].time }, widths: widths)
    }
  }

  /// A mark's text lines before wrapping, its font size and how many lines it may take.
  static func content(of mark: Mark) -> (text: [String], fontSize: Double, lines: Int) {
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
    graph.label = .text(Self.title(reactor, columns, range, number: number, of: pageCount))
    let layout = PageLayout(self, range)
    let lanes = LanePlan(self, range, includesEmptyLanes: true)
    let frame = Frame(range: range, layout: layout, laneCount: lanes.count)
    drawTitles(lanes.titles, base: 0, in: frame, into: &graph)
    Self.drawAxis(columns, in: frame, bottomLane: lanes.count - 1, into: &graph)
    _ = drawContents(lanes, base: 0, texts: layout.texts, in: frame, into: &graph)
    Self.drawLegend(in: frame, bottomLane: lanes.count - 1, into: &graph)
    return graph
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

  /// The lanes of one reactor on a page: actions, effects (greedily reused), streams, state
  /// changes.
  struct LanePlan {
    var effectLane: [Int: Int] = [:]
    var shownEffects: [(effect: Effect, start: Int, end: Int)] = []
    var actionLane: Int?
    var streamLane: [String: Int] = [:]
    var stateLane: Int?
    var titles: [String] = []
    var count: Int { titles.count }

    /// Plans the lanes of `timeline`'s events in `range`.
    ///
    /// - Parameters:
    ///   - timeline: The reactor's timeline.
    ///   - range: The page's columns.
    ///   - includesEmptyLanes: Whether the action and state lanes are drawn when nothing
    ///     happens on them (always, in the timeline of one reactor).
    init(_ timeline: TimelineDiagram, _ range: Range<Int>, includesEmptyLanes: Bool) {
      var laneEnds: [Int] = []
      for effect in timeline.effects {
        let start = max(effect.start ?? range.lowerBound, range.lowerBound)
        let end = min(effect.end ?? (range.upperBound - 1), range.upperBound - 1)
        guard start <= end, start < range.upperBound, end >= range.lowerBound else { continue }
        let lane = laneEnds.firstIndex { $0 < start } ?? laneEnds.count
        if lane == laneEnds.count { laneEnds.append(end) } else { laneEnds[lane] = end }
        effectLane[effect.id] = lane
        shownEffects.append((effect, start, end))
      }
      var hasActions = includesEmptyLanes
      var hasChanges = includesEmptyLanes
      if !includesEmptyLanes {
        for placed in timeline.marks where range.contains(placed.column) {
          switch placed.mark {
          case .action, .gap: hasActions = true
          case .stateChange: hasChanges = true
          case .mutation(_, _, .action): hasActions = true
          case .mutation(_, _, .effect(let effect, _)):
            // On the action lane when its effect's bar is not on the page.
            if effectLane[effect] == nil { hasActions = true }
          default: break
          }
        }
      }
      if hasActions {
        actionLane = 0
        titles.append("actions")
      }
      let firstEffectLane = titles.count
      effectLane = effectLane.mapValues { $0 + firstEffectLane }
      titles += (0..<laneEnds.count).map { "effects \($0 + 1)" }
      for stream in timeline.streams {
        streamLane[stream] = titles.count
        titles.append("stream \(stream)")
      }
      if hasChanges {
        stateLane = titles.count
        titles.append("state changes")
      }
    }
  }

  /// Lane titles at the left edge, the first at lane `base`.
  func drawTitles(_ titles: [String], base: Int, in frame: Frame, into graph: inout DOTGraph) {
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

  /// The nodes of one reactor's actions and mutations on a page, for arrows between reactors.
  struct DrawnNodes {
    var actions: [Int: DOTNode.ID] = [:]
    var mutations: [Int: DOTNode.ID] = [:]
  }

  /// Effect bars, actions, mutations, state changes, stream ends and gaps on the lanes of
  /// `lanes`, the first at lane `base`.
  func drawContents(
    _ lanes: LanePlan, base: Int, texts: [Int: [String]], in frame: Frame,
    into graph: inout DOTGraph
  ) -> DrawnNodes {
    let range = frame.range
    func y(_ lane: Int) -> Double { frame.y(base + lane) }
    func x(_ column: Int) -> Double { frame.x(column) }
    func width(_ column: Int) -> Double { frame.width(column) }
    func pos(_ x: Double, _ y: Double) -> DOTValue { frame.pos(x, y) }
    var drawn = DrawnNodes()

    // Effect bars, drawn first so that mutations sit on top of them.
    graph.setNodeDefaults([
      "shape": "box", "height": .string(Self.inches(Self.laneHeight * 0.86)), "fontsize": "9",
      "fontcolor": "black", "width": "1",
    ])
    var barTitles: [(text: String, pos: DOTValue, width: Double, color: String, tooltip: String)] =
      []
    for (effect, start, end) in lanes.shownEffects {
      let lane = lanes.effectLane[effect.id]!
      let barLeft = x(start) - width(start) / 2 - 4
      let barRight = x(end) + width(end) / 2 + 4
      let (fill, color, style, outcome) = Self.appearance(of: effect)
      let text = Self.barTitle(effect, isCut: effect.start.map { $0 < start } ?? true)
      let tooltip =
        "effect #\(effect.id) \(effect.name ?? "")\nstarted by action #\(effect.action)\n"
        + outcome
      graph.addNode(
        label: "",
        attributes: [
          "pos": pos((barLeft + barRight) / 2, y(lane)),
          "width": .string(Self.inches(barRight - barLeft)),
          "fillcolor": .string(fill), "color": .string(color), "style": .string(style),
          "tooltip": .string(tooltip),
        ])
      // The title sits in the bar's upper part, above the mutations on its lane.
      barTitles.append(
        (
          text, pos((barLeft + barRight) / 2, y(lane) + Self.laneHeight * 0.3),
          barRight - barLeft - 8, color, tooltip
        ))
    }
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "fontsize": "8", "height": "0.16",
    ])
    for title in barTitles {
      let line = TextWidth.wrapped(title.text, width: title.width - 4, fontSize: 8, lines: 1)
      graph.addNode(
        label: .text(line.first ?? ""),
        attributes: [
          "pos": title.pos, "width": .string(Self.inches(title.width)),
          "fontcolor": .string(title.color), "tooltip": .string(title.tooltip),
        ])
    }

    // Actions, then mutations, state changes and stream ends.
    let first = marks.partitioningIndex { $0.column >= range.lowerBound }
    let shown = marks.indices[first...].prefix { marks[$0].column < range.upperBound }
    func label(_ index: Int) -> DOTLabel {
      .text(texts[index, default: []].joined(separator: "\n"))
    }
    func boxWidth(_ column: Int) -> DOTValue { .string(Self.inches(width(column))) }
    let actionLane = lanes.actionLane ?? 0
    graph.setNodeDefaults([
      "height": "0.42", "style": "rounded,filled", "fillcolor": "#dbe9f6", "color": "#3b6ea5",
    ])
    for index in shown {
      guard case .action(let id, let text, let stream) = marks[index].mark else { continue }
      let column = marks[index].column
      drawn.actions[id] = graph.addNode(
        label: label(index),
        attributes: [
          "pos": pos(x(column), y(actionLane)), "width": boxWidth(column),
          "tooltip": .string("action #\(id)\n" + (stream.map { $0 + ": " } ?? "") + text),
        ])
    }
    graph.setNodeDefaults([
      "height": "0.38", "fillcolor": "white", "color": "#444444",
    ])
    for index in shown {
      guard case .mutation(let id, let text, let cause) = marks[index].mark else { continue }
      let column = marks[index].column
      var lane = actionLane
      switch cause {
      case .effect(let effect, action: _): lane = lanes.effectLane[effect] ?? actionLane
      case .stream(let stream): lane = lanes.streamLane[stream] ?? actionLane
      case .action(_): lane = actionLane
      }
      let node = graph.addNode(
        label: label(index),
        attributes: [
          "pos": pos(x(column), y(lane) - 7), "width": boxWidth(column),
          "tooltip": .string("mutation \(text)"),
        ])
      drawn.mutations[id] = node
      if let action = cause.action, let source = drawn.actions[action] {
        graph.addEdge(from: source, to: node)
      }
    }
    graph.setNodeDefaults([
      "height": "0.66", "shape": "note", "fillcolor": "#fafafa", "color": "gray60",
      "fontsize": "8",
    ])
    if let stateLane = lanes.stateLane {
      for index in shown {
        guard case .stateChange(let changes) = marks[index].mark else { continue }
        let column = marks[index].column
        graph.addNode(
          label: label(index),
          attributes: [
            "pos": pos(x(column), y(stateLane)), "width": boxWidth(column),
            "tooltip": .string(changes.isEmpty ? "(unchanged)" : changes.joined(separator: "\n")),
          ])
      }
    }
    graph.setNodeDefaults(["height": "0.38", "shape": "cds", "fontsize": "9"])
    for index in shown {
      guard case .streamEnd(let stream, let error) = marks[index].mark else { continue }
      let column = marks[index].column
      graph.addNode(
        label: label(index),
        attributes: [
          "pos": pos(x(column), y(lanes.streamLane[stream] ?? actionLane)),
          "width": boxWidth(column),
          "fillcolor": error == nil ? "#eeeeee" : "#fde0dc",
          "tooltip": .string("stream \(stream) ended" + (error.map { ": " + $0 } ?? "")),
        ])
    }
    graph.setNodeDefaults(["height": "0.38", "shape": "box", "fontsize": "9"])
    for index in shown {
      guard case .gap(let dropped) = marks[index].mark else { continue }
      let column = marks[index].column
      graph.addNode(
        label: label(index),
        attributes: [
          "pos": pos(x(column), y(actionLane)), "width": boxWidth(column),
          "fillcolor": "#fde0dc", "color": "#c62828", "style": "filled,bold",
          "tooltip": .string(
            "the recorder dropped \(dropped) events here: the trace is incomplete"),
        ])
    }
    return drawn
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
  static func barTitle(_ effect: Effect, isCut: Bool) -> String {
    (isCut ? "… " : "") + (effect.name ?? "effect") + " #\(effect.id) · "
      + appearance(of: effect.outcome).outcome
  }

  private static func appearance(
    of effect: Effect
  ) -> (fill: String, color: String, style: String, outcome: String) {
    appearance(of: effect.outcome)
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
