import ReactorTracing

extension TimelineLanes {
  /// Measures the boxes of the reactor's events in `range`.
  ///
  /// - Returns: The width each column of `range` needs, and each mark's text, wrapped into
  ///   its box, by the mark's index.
  func measure(_ range: Range<Int>) -> (widths: [Double], texts: [Int: [String]]) {
    var widths = Array(repeating: TimelineDiagram.emptyColumn, count: range.count)
    var texts: [Int: [String]] = [:]
    let start = marks.partitioningIndex { $0.column >= range.lowerBound }
    for index in start..<marks.count {
      let placed = marks[index]
      guard placed.column < range.upperBound else { break }
      let (text, fontSize, lines) = TimelineDiagram.content(of: placed.mark)
      let (width, wrapped) = TimelineDiagram.fit(text, fontSize: fontSize, lines: lines)
      widths[placed.column - range.lowerBound] = max(
        widths[placed.column - range.lowerBound], width)
      texts[index] = wrapped
    }
    // An effect's bar is as wide as its columns: widen its last one to fit its title.
    for effect in effects {
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
    return (widths, texts)
  }

  /// Whether the reactor has anything to draw in `range`.
  func isActive(in range: Range<Int>) -> Bool {
    marks.contains { range.contains($0.column) }
      || effects.contains { effect in
        let start = effect.start ?? range.lowerBound
        let end = effect.end ?? (range.upperBound - 1)
        return start < range.upperBound && end >= range.lowerBound
      }
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

    /// Plans the lanes of `lanes`' events in `range`.
    ///
    /// - Parameters:
    ///   - lanes: The reactor's lanes.
    ///   - range: The page's columns.
    ///   - includesEmptyLanes: Whether the action and state lanes are drawn when nothing
    ///     happens on them (always, in the timeline of one reactor).
    init(_ lanes: TimelineLanes, _ range: Range<Int>, includesEmptyLanes: Bool) {
      var laneEnds: [Int] = []
      for effect in lanes.effects {
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
        for placed in lanes.marks where range.contains(placed.column) {
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
      for stream in lanes.streams {
        streamLane[stream] = titles.count
        titles.append("stream \(stream)")
      }
      if hasChanges {
        stateLane = titles.count
        titles.append("state changes")
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
    _ lanes: LanePlan, base: Int, texts: [Int: [String]], in frame: TimelineDiagram.Frame,
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
      "shape": "box", "height": .string(TimelineDiagram.inches(TimelineDiagram.laneHeight * 0.86)),
      "fontsize": "9",
      "fontcolor": "black", "width": "1",
    ])
    var barTitles: [(text: String, pos: DOTValue, width: Double, color: String, tooltip: String)] =
      []
    for (effect, start, end) in lanes.shownEffects {
      let lane = lanes.effectLane[effect.id]!
      let barLeft = x(start) - width(start) / 2 - 4
      let barRight = x(end) + width(end) / 2 + 4
      let (fill, color, style, outcome) = TimelineDiagram.appearance(of: effect)
      let text = TimelineDiagram.barTitle(effect, isCut: effect.start.map { $0 < start } ?? true)
      let tooltip =
        "effect #\(effect.id) \(effect.name ?? "")\nstarted by action #\(effect.action)\n"
        + (effect.isEndedByRelease ? "still running when the reactor was released" : outcome)
      graph.addNode(
        label: "",
        attributes: [
          "pos": pos((barLeft + barRight) / 2, y(lane)),
          "width": .string(TimelineDiagram.inches(barRight - barLeft)),
          "fillcolor": .string(fill), "color": .string(color), "style": .string(style),
          "tooltip": .string(tooltip),
        ])
      // The title sits in the bar's upper part, above the mutations on its lane.
      barTitles.append(
        (
          text, pos((barLeft + barRight) / 2, y(lane) + TimelineDiagram.laneHeight * 0.3),
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
          "pos": title.pos, "width": .string(TimelineDiagram.inches(title.width)),
          "fontcolor": .string(title.color), "tooltip": .string(title.tooltip),
        ])
    }

    // Actions, then mutations, state changes and stream ends.
    let first = marks.partitioningIndex { $0.column >= range.lowerBound }
    let shown = marks.indices[first...].prefix { marks[$0].column < range.upperBound }
    func label(_ index: Int) -> DOTLabel {
      .text(texts[index, default: []].joined(separator: "\n"))
    }
    func boxWidth(_ column: Int) -> DOTValue { .string(TimelineDiagram.inches(width(column))) }
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
}
