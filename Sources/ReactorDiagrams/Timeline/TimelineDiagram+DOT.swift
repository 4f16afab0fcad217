import ReactorTracing

extension TimelineDiagram {
  /// The horizontal distance between two events, in points.
  static let columnWidth = 104.0

  /// The vertical distance between two lanes, in points.
  static let laneHeight = 72.0

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
    let size = max(eventsPerPage, 1)
    let starts = Array(stride(from: 0, to: max(columns.count, 1), by: size))
    return starts.enumerated().map { index, start in
      page(start..<min(start + size, columns.count), number: index + 1, of: starts.count)
    }
  }

  private func page(_ range: Range<Int>, number: Int, of pageCount: Int) -> DOTGraph {
    var graph = DOTGraph(
      attributes: [
        "splines": "line", "outputorder": "edgesfirst", "fontname": "Helvetica",
        "fontsize": "12", "labelloc": "t", "pad": "0.3",
      ],
      nodeAttributes: [
        "fontname": "Helvetica", "fontsize": "9", "fixedsize": "true", "style": "filled",
        "shape": "box", "penwidth": "1",
      ],
      edgeAttributes: ["color": "#5b7da8", "arrowsize": "0.5", "penwidth": "0.8"]
    )
    var title = reactor
    if let first = range.first, let last = range.last {
      title += "  ·  seq \(columns[first].sequence)–\(columns[last].sequence)"
    }
    if pageCount > 1 { title += "  ·  page \(number) of \(pageCount)" }
    graph.label = .text(title)

    // Lanes: actions, effects (greedily reused), streams, state changes.
    var laneEnds: [Int] = []
    var effectLane: [Int: Int] = [:]
    var shownEffects: [(effect: Effect, start: Int, end: Int)] = []
    for effect in effects {
      let start = max(effect.start ?? range.lowerBound, range.lowerBound)
      let end = min(effect.end ?? (range.upperBound - 1), range.upperBound - 1)
      guard start <= end, start < range.upperBound, end >= range.lowerBound else { continue }
      let lane = laneEnds.firstIndex { $0 < start } ?? laneEnds.count
      if lane == laneEnds.count { laneEnds.append(end) } else { laneEnds[lane] = end }
      effectLane[effect.id] = lane
      shownEffects.append((effect, start, end))
    }
    let effectLaneCount = laneEnds.count
    let streamLane = Dictionary(
      uniqueKeysWithValues: streams.enumerated().map { ($1, 1 + effectLaneCount + $0) })
    let stateLane = 1 + effectLaneCount + streams.count
    let laneCount = stateLane + 1
    func y(_ lane: Int) -> Double { Double(laneCount - lane) * Self.laneHeight }
    func x(_ column: Int) -> Double { Double(column - range.lowerBound) * Self.columnWidth }
    func pos(_ x: Double, _ y: Double) -> DOTValue { .string("\(x),\(y)!") }

    // Lane titles and the time axis.
    var laneTitles = ["actions"]
    laneTitles += (0..<effectLaneCount).map { "effects \($0 + 1)" }
    laneTitles += streams.map { "stream \($0.singleLine.truncated(to: 14))" }
    laneTitles.append("state changes")
    // Nodes come in runs of one kind each, whose shared attributes are written once: a
    // timeline has thousands of nodes of a kind. Kinds overlap only where a later kind is
    // meant to be drawn on top (mutations on effect bars).
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "width": "1.1", "height": "0.3", "fontsize": "10",
      "fontcolor": "gray25",
    ])
    for (lane, title) in laneTitles.enumerated() {
      graph.addNode(label: .text(title), attributes: ["pos": pos(-Self.columnWidth, y(lane))])
    }
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "width": "0.8", "height": "0.3", "fontsize": "7",
      "fontcolor": "gray45",
    ])
    var lastTime: Duration?
    for column in range {
      let time = columns[column].time
      var tick = "#\(columns[column].sequence)"
      if time != lastTime { tick += "\n" + Self.format(time) }
      lastTime = time
      graph.addNode(label: .text(tick), attributes: ["pos": pos(x(column), y(-1) - 8)])
    }

    // Effect bars, drawn first so that mutations sit on top of them.
    graph.setNodeDefaults(["height": .string(Self.inches(Self.laneHeight * 0.86))])
    var barTitles: [(text: String, pos: DOTValue, width: String, color: String, tooltip: String)] =
      []
    for (effect, start, end) in shownEffects {
      let lane = 1 + effectLane[effect.id]!
      let left = x(start) - Self.columnWidth * 0.46
      let right = x(end) + Self.columnWidth * 0.46
      let (fill, color, style, outcome) = Self.appearance(of: effect)
      var text = (effect.name ?? "effect").singleLine.truncated(to: 24) + " #\(effect.id)"
      if effect.start == nil || start > (effect.start ?? start) { text = "… " + text }
      text += " · " + outcome
      let tooltip =
        "effect #\(effect.id) \(effect.name ?? "")\nstarted by action #\(effect.action)\n"
        + outcome
      graph.addNode(
        label: "",
        attributes: [
          "pos": pos((left + right) / 2, y(lane)), "width": .string(Self.inches(right - left)),
          "fillcolor": .string(fill), "color": .string(color), "style": .string(style),
          "tooltip": .string(tooltip),
        ])
      // The title sits in the bar's upper part, above the mutations on its lane.
      barTitles.append(
        (
          text, pos((left + right) / 2, y(lane) + Self.laneHeight * 0.27),
          Self.inches(right - left - 8), color, tooltip
        ))
    }
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "fontsize": "8", "height": "0.16",
    ])
    for title in barTitles {
      graph.addNode(
        label: .text(title.text),
        attributes: [
          "pos": title.pos, "width": .string(title.width), "fontcolor": .string(title.color),
          "tooltip": .string(title.tooltip),
        ])
    }

    // Actions, then mutations, state changes and stream ends.
    let shown = marks.filter { range.contains($0.column) }
    let cellWidth = DOTValue.string(Self.inches(Self.columnWidth * 0.86))
    graph.setNodeDefaults([
      "width": cellWidth, "height": "0.42", "style": "rounded,filled", "fillcolor": "#dbe9f6",
      "color": "#3b6ea5",
    ])
    var actionNodes: [Int: DOTNode.ID] = [:]
    for case (let column, .action(let id, let label, let stream)) in shown.lazy.map({
      ($0.column, $0.mark)
    }) {
      let text = (stream.map { $0 + ": " } ?? "") + label
      actionNodes[id] = graph.addNode(
        label: .text(Self.wrapped(text, width: 16, lines: 2)),
        attributes: ["pos": pos(x(column), y(0)), "tooltip": .string("action #\(id)\n\(text)")])
    }
    graph.setNodeDefaults([
      "width": cellWidth, "height": "0.38", "fillcolor": "white", "color": "#444444",
    ])
    for case (let column, .mutation(let label, let cause, _)) in shown.lazy.map({
      ($0.column, $0.mark)
    }) {
      var lane = 0
      switch cause {
      case .effect(let effect, action: _): lane = effectLane[effect].map { $0 + 1 } ?? 0
      case .stream(let stream): lane = streamLane[stream] ?? 0
      case .action(_): lane = 0
      }
      let node = graph.addNode(
        label: .text(Self.wrapped(label, width: 16, lines: 2)),
        attributes: [
          "pos": pos(x(column), y(lane) - 7), "tooltip": .string("mutation \(label)"),
        ])
      if let action = cause.action, let source = actionNodes[action] {
        graph.addEdge(from: source, to: node)
      }
    }
    graph.setNodeDefaults([
      "width": cellWidth, "height": "0.62", "shape": "note", "fillcolor": "#fafafa",
      "color": "gray60", "fontsize": "8",
    ])
    for case (let column, .mutation(_, _, let changes)) in shown.lazy.map({
      ($0.column, $0.mark)
    }) {
      let summary = changes.isEmpty ? "(unchanged)" : Self.summary(of: changes)
      graph.addNode(
        label: .text(summary),
        attributes: [
          "pos": pos(x(column), y(stateLane)),
          "tooltip": .string(changes.map { $0.text.truncated(to: 500) }.joined(separator: "\n")),
        ])
    }
    graph.setNodeDefaults(["width": cellWidth, "height": "0.38", "shape": "cds"])
    for case (let column, .streamEnd(let stream, let error)) in shown.lazy.map({
      ($0.column, $0.mark)
    }) {
      graph.addNode(
        label: .text(
          Self.wrapped("end " + (error.map { "✗ " + $0 } ?? "✓"), width: 16, lines: 2)),
        attributes: [
          "pos": pos(x(column), y(streamLane[stream] ?? 0)),
          "fillcolor": error == nil ? "#eeeeee" : "#fde0dc",
          "tooltip": .string("stream \(stream) ended" + (error.map { ": " + $0 } ?? "")),
        ])
    }
    graph.setNodeDefaults(["width": cellWidth, "height": "0.38", "shape": "box"])
    for case (let column, .gap(let dropped)) in shown.lazy.map({ ($0.column, $0.mark) }) {
      graph.addNode(
        label: .text(Self.wrapped("⋯ \(dropped) dropped", width: 16, lines: 2)),
        attributes: [
          "pos": pos(x(column), y(0)), "fillcolor": "#fde0dc", "color": "#c62828",
          "style": "filled,bold",
          "tooltip": .string(
            "the recorder dropped \(dropped) events here: the trace is incomplete"),
        ])
    }
    return graph
  }

  private static func appearance(
    of effect: Effect
  ) -> (fill: String, color: String, style: String, outcome: String) {
    switch effect.outcome {
    case .finished: ("#e3f4e1b0", "#2e7d32", "rounded,filled", "finished")
    case .cancelled: ("#eeeeeeb0", "#6d6d6d", "rounded,dashed,filled", "cancelled")
    case .failed(let error):
      (
        "#fde0dcb0", "#c62828", "rounded,bold,filled",
        "failed: " + error.singleLine.truncated(to: 30)
      )
    case nil: ("#fff4e0b0", "#e65100", "rounded,dotted,filled", "running")
    }
  }

  static func summary(of changes: [StateField]) -> String {
    if changes.count == 1 { return wrapped(changes[0].text, width: 18, lines: 3) }
    var lines = changes.prefix(3).map { $0.text.singleLine.truncated(to: 20) }
    if changes.count > 3 { lines[2] = "… \(changes.count - 2) more" }
    return lines.joined(separator: "\n")
  }

  static func wrapped(_ text: String, width: Int, lines: Int) -> String {
    var remaining = Substring(text.singleLine)
    var result: [String] = []
    while !remaining.isEmpty && result.count < lines {
      if result.count == lines - 1 {
        result.append(String(remaining).truncated(to: width))
        break
      }
      var line = remaining.prefix(width)
      if line.count == width, remaining.count > width,
        let space = line.lastIndex(of: " "),
        line.distance(from: line.startIndex, to: space) >= width / 2
      {
        line = line[...space]
      }
      result.append(String(line))
      remaining = remaining.dropFirst(line.count)
    }
    return result.joined(separator: "\n")
  }

  static func format(_ time: Duration) -> String {
    let (seconds, attoseconds) = time.components
    let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    if milliseconds < 1_000 { return "\(milliseconds)ms" }
    let tenths = milliseconds / 100
    return "\(tenths / 10).\(tenths % 10)s"
  }

  static func inches(_ points: Double) -> String {
    let hundredths = Int((points / 72 * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
  }
}
