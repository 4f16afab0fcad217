import ReactorTracing

extension SessionTimelineDiagram {
  /// Returns the whole diagram as one graph, for the ``LayoutEngine/nop`` engine.
  ///
  /// - Returns: A graph with every node pinned.
  public func dotGraph() -> DOTGraph {
    page(columns.indices, number: 1, of: 1)
  }

  /// Splits the diagram into graphs of at most `eventsPerPage` events each, for the
  /// ``LayoutEngine/nop`` engine.
  ///
  /// - Parameter eventsPerPage: The most events on one page; at least 1.
  /// - Returns: One graph per page, at least one.
  public func pages(eventsPerPage: Int) -> [DOTGraph] {
    let ranges = pageRanges(eventsPerPage: eventsPerPage)
    return ranges.enumerated().map { page($1, number: $0 + 1, of: ranges.count) }
  }

  /// Splits the diagram into as few pages as keep each at most `maximumWidth` points wide.
  ///
  /// - Parameter maximumWidth: The widest page, in points; at least one event goes on a page.
  /// - Returns: One graph per page, at least one.
  public func pages(maximumWidth: Double) -> [DOTGraph] {
    let ranges = WidthPaging.ranges(count: columns.count, maximumWidth: maximumWidth) {
      width(of: $0)
    }
    return ranges.enumerated().map { page($1, number: $0 + 1, of: ranges.count) }
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

  private func width(of range: Range<Int>) -> Double {
    let layout = self.layout(of: range).merged
    let span =
      (layout.axis.centers.last ?? 0) + (layout.widths.last ?? 0) / 2
      + (layout.widths.first ?? 0) / 2
    return TimelineDiagram.laneTitleWidth + 16 + span + 12 + 2 * 0.3 * 72
  }

  /// Each drawn reactor's texts, and the columns as wide as the widest reactor needs.
  private func layout(
    of range: Range<Int>
  ) -> (merged: TimelineDiagram.PageLayout, groups: [TimelineDiagram.PageLayout]) {
    let layouts = groups.map { TimelineDiagram.PageLayout($0.timeline, range) }
    var widths = Array(repeating: TimelineDiagram.emptyColumn, count: range.count)
    for layout in layouts {
      for index in widths.indices { widths[index] = max(widths[index], layout.widths[index]) }
    }
    let axis = TimeAxis(times: range.map { columns[$0].time }, widths: widths)
    return (TimelineDiagram.PageLayout(widths: widths, axis: axis), layouts)
  }

  /// Whether a reactor has anything to draw on the page.
  private func isActive(_ group: Group, in range: Range<Int>) -> Bool {
    group.timeline.marks.contains { range.contains($0.column) }
      || group.timeline.effects.contains { effect in
        let start = effect.start ?? range.lowerBound
        let end = effect.end ?? (range.upperBound - 1)
        return start < range.upperBound && end >= range.lowerBound
      }
  }

  private func page(_ range: Range<Int>, number: Int, of pageCount: Int) -> DOTGraph {
    var graph = TimelineDiagram.emptyPage()
    graph.label = .text(
      TimelineDiagram.title(title, columns, range, number: number, of: pageCount))
    let (layout, layouts) = self.layout(of: range)
    let active = groups.indices.filter { isActive(groups[$0], in: range) }
    let idle = groups.indices.filter { !active.contains($0) }
    let plans = active.map {
      TimelineDiagram.LanePlan(groups[$0].timeline, range, includesEmptyLanes: false)
    }
    var bases: [Int] = []
    var laneCount = 0
    for plan in plans {
      bases.append(laneCount)
      laneCount += max(plan.count, 1)
    }
    let idleLane = idle.isEmpty ? nil : laneCount
    if !idle.isEmpty { laneCount += 1 }
    let frame = TimelineDiagram.Frame(range: range, layout: layout, laneCount: max(laneCount, 1))

    // Lane titles, each reactor's group under its name.
    for (order, index) in active.enumerated() {
      groups[index].timeline.drawTitles(
        plans[order].titles, base: bases[order], in: frame, into: &graph)
    }
    if let idleLane {
      groups[0].timeline.drawTitles(["idle"], base: idleLane, in: frame, into: &graph)
    }
    let groupTitleWidth = TimelineDiagram.laneTitleWidth + 40
    graph.setNodeDefaults([
      "shape": "plaintext", "style": "", "width": .string(TimelineDiagram.inches(groupTitleWidth)),
      "height": "0.34", "fontsize": "10", "fontcolor": "#1f3b5c",
    ])
    var separators: [Double] = []
    for (order, index) in active.enumerated() {
      let boundary = frame.y(bases[order]) + TimelineDiagram.laneHeight / 2
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
    if let idleLane { separators.append(frame.y(idleLane) + TimelineDiagram.laneHeight / 2) }
    TimelineDiagram.drawAxis(columns, in: frame, bottomLane: frame.laneCount - 1, into: &graph)
    // A thin line between two reactors' lanes.
    graph.setNodeDefaults([
      "shape": "point", "style": "invis", "width": "0.01", "height": "0.01",
    ])
    for y in separators {
      let start = graph.addNode(label: "", attributes: ["pos": frame.pos(frame.left - 8, y)])
      let end = graph.addNode(label: "", attributes: ["pos": frame.pos(frame.right + 8, y)])
      graph.addEdge(
        from: start, to: end,
        attributes: ["color": "gray80", "arrowhead": "none", "tooltip": "next reactor"])
    }

    var drawn: [Int: TimelineDiagram.DrawnNodes] = [:]
    for (order, index) in active.enumerated() {
      drawn[groups[index].reactor] = groups[index].timeline.drawContents(
        plans[order], base: bases[order], texts: layouts[index].texts, in: frame, into: &graph)
    }
    if let idleLane {
      let text =
        idle.map { groups[$0].title }.joined(separator: ", ") + ": nothing on this page"
      let width = min(
        max(frame.right - frame.left, 200), TextWidth.points(text, fontSize: 9) + 12)
      let lines = TextWidth.wrapped(text, width: width - 8, fontSize: 9, lines: 2)
      graph.setNodeDefaults([
        "shape": "plaintext", "style": "", "fontsize": "9", "fontcolor": "gray40",
        "height": "0.34", "width": .string(TimelineDiagram.inches(width)),
      ])
      graph.addNode(
        label: .text(lines.joined(separator: "\n")),
        attributes: [
          "pos": frame.pos(frame.left + width / 2, frame.y(idleLane)),
          "tooltip": .string(text),
        ])
    }

    // Causes across reactors.
    for cause in causes {
      guard let action = cause.from.action,
        let source = drawn[cause.from.reactor]?.actions[action],
        let nodes = drawn[cause.reactor]
      else { continue }
      let target: DOTNode.ID?
      switch cause.target {
      case .action(let id): target = nodes.actions[id]
      case .mutation(let id): target = nodes.mutations[id]
      }
      guard let target else { continue }
      graph.addEdge(
        from: source, to: target,
        attributes: [
          "color": "#d9822b", "style": "dashed", "penwidth": "1.3", "arrowsize": "0.7",
          "tooltip": .string(
            "reactor \(cause.from.reactor) action #\(action) → reactor \(cause.reactor) "
              + {
                switch cause.target {
                case .action(let id): "action #\(id)"
                case .mutation(let id): "mutation #\(id)"
                }
              }()),
        ])
    }
    TimelineDiagram.drawLegend(in: frame, bottomLane: frame.laneCount - 1, into: &graph)
    return graph
  }
}
