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

  /// What was alive and running when a page opens.
  private func state(before index: Int) -> (alive: [Int], open: [OpenEffect]) {
    var alive = aliveAtStart
    var open = openAtStart
    for row in rows[..<index] {
      switch row.step {
      case .created(let reactor, _): alive.append(reactor)
      case .released(let reactor):
        alive.removeAll { $0 == reactor }
        open.removeAll { $0.reactor == reactor }
      case .effectStarted(let reactor, let effect, let action, let name):
        open.append(OpenEffect(reactor: reactor, effect: effect, action: action, name: name))
      case .effectEnded(let reactor, let effect, _):
        open.removeAll { $0.reactor == reactor && $0.effect == effect }
      default: break
      }
    }
    return (alive, open)
  }

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

  private func page(_ range: Range<Int>, number: Int, of pageCount: Int) -> DOTGraph {
    var graph = DOTGraph(
      attributes: [
        "splines": "line", "outputorder": "edgesfirst", "fontname": "Helvetica",
        "fontsize": "13", "labelloc": "t", "labeljust": "l", "pad": "0.3",
      ],
      nodeAttributes: [
        "fontname": "Helvetica", "fontsize": "9", "fixedsize": "true", "shape": "plaintext",
        "penwidth": "1",
      ],
      edgeAttributes: ["color": "#5b7da8", "arrowsize": "0.6", "penwidth": "0.9"]
    )
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
    graph.label = .text(title)

    // Who is on this page.
    let (aliveAtPage, openAtPage) = state(before: range.lowerBound)
    var used: Set<Participant> = Set(aliveAtPage.map(Participant.reactor))
    for row in rows[range] {
      switch row.step {
      case .created(let reactor, let parent):
        used.insert(.reactor(reactor))
        if let parent { used.insert(parent) }
      case .action(_, _, _, let sender, _): used.insert(sender)
      case .mutation(_, _, _, let cause, _, let publisher, _):
        if case .stream(let name) = cause { used.insert(.stream(name)) }
        if let publisher { used.insert(publisher) }
      case .streamEnded(_, let stream, _): used.insert(.stream(stream))
      default: break
      }
    }
    let columns = participants.filter(used.contains)
    let column = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    let texts = rows[range].map { Self.text(of: $0.step) }
    let headers = columns.map { participant in
      TimelineDiagram.fit(headerText(of: participant), fontSize: 9, lines: 2)
    }

    // Effect slots: effects of one reactor that overlap sit side by side.
    var slot: [EffectKey: Int] = [:]
    var slotsInUse: [Int: Set<Int>] = [:]
    func take(_ key: EffectKey) {
      var free = 0
      while slotsInUse[key.reactor, default: []].contains(free) { free += 1 }
      slotsInUse[key.reactor, default: []].insert(free)
      slot[key] = free
    }
    for effect in openAtPage { take(EffectKey(reactor: effect.reactor, effect: effect.effect)) }
    var rowSlots: [[EffectKey: Int]] = []
    var deepest: [Int: Int] = [:]
    for row in rows[range] {
      switch row.step {
      case .effectStarted(let reactor, let effect, _, _):
        take(EffectKey(reactor: reactor, effect: effect))
      case .released(let reactor):
        slotsInUse[reactor] = nil
      default: break
      }
      for (key, value) in slot { deepest[key.reactor] = max(deepest[key.reactor] ?? 0, value) }
      rowSlots.append(slot)
      if case .effectEnded(let reactor, let effect, _) = row.step {
        let key = EffectKey(reactor: reactor, effect: effect)
        if let taken = slot.removeValue(forKey: key) { slotsInUse[reactor]?.remove(taken) }
      }
    }
    func offset(_ reactor: Int, _ effect: Int?, row: Int) -> Double {
      guard let effect, let taken = rowSlots[row][EffectKey(reactor: reactor, effect: effect)]
      else { return 0 }
      return Double(taken) * Self.slotOffset
    }

    // Columns: room to the right of each lifeline for its own labels and notes.
    var right = headers.map { $0.0 / 2 }
    for (index, row) in rows[range].enumerated() {
      let text = texts[index]
      switch row.step {
      case .action(let reactor, _, _, let sender, _) where sender == .reactor(reactor):
        if let at = column[.reactor(reactor)] {
          right[at] = max(right[at], 32 + text.labelWidth)
        }
      case .mutation(let reactor, _, _, let cause, _, _, _):
        guard let at = column[.reactor(reactor)] else { break }
        let depth = Double(deepest[reactor] ?? 0) * Self.slotOffset
        if case .stream = cause {
          right[at] = max(right[at], depth + 14 + text.noteWidth)
        } else {
          right[at] = max(right[at], depth + 32 + max(text.labelWidth, text.noteWidth))
        }
      case .effectStarted(let reactor, _, _, _), .effectEnded(let reactor, _, _):
        guard let at = column[.reactor(reactor)] else { break }
        let depth = Double(deepest[reactor] ?? 0) * Self.slotOffset
        right[at] = max(right[at], depth + Self.activationWidth + 4 + text.labelWidth)
      default: break
      }
    }
    var x = Array(repeating: 0.0, count: columns.count)
    for index in columns.indices {
      if index == 0 {
        x[index] = Self.eventColumnWidth + 12 + headers[index].0 / 2
      } else {
        x[index] =
          x[index - 1]
          + max(right[index - 1] + 14, headers[index - 1].0 / 2 + headers[index].0 / 2 + 16, 64)
      }
    }
    // Messages between columns: the label fits between their lifelines.
    var spans: [(from: Int, to: Int, width: Double)] = []
    for (index, row) in rows[range].enumerated() {
      var ends: (Participant, Participant)?
      switch row.step {
      case .action(let reactor, _, _, let sender, _) where sender != .reactor(reactor):
        ends = (sender, .reactor(reactor))
      case .streamEnded(let reactor, let stream, _):
        ends = (.stream(stream), .reactor(reactor))
      case .mutation(let reactor, _, _, .stream(let stream), _, _, _):
        ends = (.stream(stream), .reactor(reactor))
      default: break
      }
      guard let (a, b) = ends, let first = column[a], let second = column[b] else { continue }
      spans.append((min(first, second), max(first, second), texts[index].labelWidth))
    }
    for span in spans.sorted(by: { $0.to - $0.from < $1.to - $1.from }) {
      let missing = span.width + 24 - (x[span.to] - x[span.from])
      if missing > 0 {
        for index in span.to..<x.count { x[index] += missing }
      }
    }
    let rightEdge = (x.last ?? 0) + max(right.last ?? 0, 40) + 8

    func pos(_ px: Double, _ down: Double) -> DOTValue {
      .string(TimelineDiagram.number(px) + "," + TimelineDiagram.number(-down) + "!")
    }
    func inches(_ points: Double) -> DOTValue { .string(TimelineDiagram.inches(points)) }
    func anchor(_ px: Double, _ down: Double) -> DOTNode.ID {
      graph.addNode(
        label: "",
        attributes: [
          "shape": "point", "width": "0.02", "height": "0.02", "style": "invis",
          "pos": pos(px, down),
        ])
    }
    func textNode(
      _ lines: [String], width: Double, at px: Double, _ down: Double, fontSize: Double = 9,
      extra: [String: DOTValue] = [:]
    ) {
      var attributes: [String: DOTValue] = [
        "pos": pos(px, down), "width": inches(width),
        "height": inches(Double(lines.count) * fontSize * 1.22 + 4),
        "fontsize": .string(TimelineDiagram.number(fontSize)),
      ]
      attributes.merge(extra) { $1 }
      graph.addNode(label: .text(lines.joined(separator: "\n")), attributes: attributes)
    }

    /// An arrow that leaves the lifeline at `x` and comes back to it 12 points lower;
    /// returns where it leaves and where it comes back.
    func selfMessage(
      x: Double, top: Double, tooltip: String, onBox: Bool
    ) -> (DOTNode.ID, DOTNode.ID) {
      // It leaves from the lifeline (under the box, if any) and comes back to the box's edge.
      let start = anchor(x, top)
      let out = anchor(x + 24, top)
      let back = anchor(x + 24, top + 12)
      let end = anchor(x + (onBox ? Self.activationWidth / 2 : 0), top + 12)
      let line: [String: DOTValue] = ["arrowhead": "none", "tooltip": .string(tooltip)]
      graph.addEdge(from: start, to: out, attributes: line)
      graph.addEdge(from: out, to: back, attributes: line)
      graph.addEdge(from: back, to: end, attributes: ["tooltip": .string(tooltip)])
      return (start, end)
    }
    /// A note of what a mutation changed.
    func note(_ lines: [String], width: Double, x: Double, _ down: Double, height: Double) {
      graph.addNode(
        label: .text(lines.joined(separator: "\n")),
        attributes: [
          "shape": "note", "style": "filled", "fillcolor": "#fffbe6", "color": "#c9b458",
          "fontsize": "8", "pos": pos(x, down), "width": inches(width),
          "height": inches(height - 2), "tooltip": .string(lines.joined(separator: "\n")),
        ])
    }

    // Headers along the top, for whoever is there when the page opens.
    let headerTop = 8.0
    var lifelineTop: [Int: Double] = [:]
    func header(_ index: Int, centre: Double) -> DOTNode.ID {
      let participant = columns[index]
      var fill = "#eef2f7"
      var shape = "box"
      var style = "rounded,filled"
      switch participant {
      case .user: fill = "#f6f6f6"
      case .stream: (fill, shape, style) = ("#fff4e0", "box", "filled")
      case .others: (fill, style) = ("#f6f6f6", "rounded,dashed,filled")
      case .reactor: break
      }
      let (width, lines) = headers[index]
      lifelineTop[index] = centre + Self.headerHeight / 2
      return graph.addNode(
        label: .text(lines.joined(separator: "\n")),
        attributes: [
          "pos": pos(x[index], centre), "width": inches(width),
          "height": inches(Self.headerHeight), "shape": .string(shape), "style": .string(style),
          "fillcolor": .string(fill), "color": "#3b6ea5", "fontsize": "9",
          "tooltip": .string(headerText(of: participant).joined(separator: " ")),
        ])
    }
    for index in columns.indices {
      if case .reactor(let id) = columns[index], !aliveAtPage.contains(id) { continue }
      _ = header(index, centre: headerTop + Self.headerHeight / 2)
    }

    // Rows.
    var down = headerTop + Self.headerHeight + 14
    var lifelineBottom: [Int: Double] = [:]
    var lastAnchor: [EffectKey: DOTNode.ID] = [:]
    var activationTop: [EffectKey: Double] = [:]
    for effect in openAtPage {
      let key = EffectKey(reactor: effect.reactor, effect: effect.effect)
      activationTop[key] = down - 8
    }
    var actionAnchor: [ActionKey: DOTNode.ID] = [:]
    var activations:
      [(
        key: EffectKey, top: Double, bottom: Double, outcome: TraceEvent.Outcome?,
        isOpenAbove: Bool, name: String
      )] = []
    var effectNames: [EffectKey: String] = [:]
    for effect in openAtPage {
      effectNames[EffectKey(reactor: effect.reactor, effect: effect.effect)] =
        (effect.name ?? "effect") + " #\(effect.effect)"
    }
    func chain(_ reactor: Int, _ effect: Int?, to node: DOTNode.ID) {
      guard let effect else { return }
      let key = EffectKey(reactor: reactor, effect: effect)
      if let last = lastAnchor[key] {
        graph.addEdge(
          from: last, to: node,
          attributes: [
            "arrowhead": "none", "color": "#2e5c8a", "penwidth": "1.2",
            "tooltip": .string("thread of \(effectNames[key] ?? "effect #\(effect)")"),
          ])
      }
      lastAnchor[key] = node
    }
    func describe(_ participant: Participant) -> String {
      headerText(of: participant).joined(separator: " ")
    }
    let stepColumnX = Self.eventColumnWidth / 2
    var lastTime: Duration?
    for (offsetInPage, row) in rows[range].enumerated() {
      let text = texts[offsetInPage]
      let geometry = Self.geometry(of: row.step, text: text)
      let line = down + geometry.line
      // The event's number and time, at the left.
      var stamp = "#\(row.sequence)"
      if row.time != lastTime { stamp += "  " + TimelineDiagram.format(row.time) }
      lastTime = row.time
      // 10 points tall: every row's line is at least 5 points from its top and its bottom.
      textNode(
        [stamp], width: Self.eventColumnWidth, at: stepColumnX, line, fontSize: 7,
        extra: ["fontcolor": "gray45", "height": inches(10)])
      func lifelineX(_ participant: Participant) -> Double? {
        column[participant].map { x[$0] }
      }
      switch row.step {
      case .created(let reactor, let parent):
        guard let at = column[.reactor(reactor)] else { break }
        let box = header(at, centre: line)
        if let parent, let px = lifelineX(parent) {
          let tail = anchor(px, line)
          graph.addEdge(
            from: tail, to: box,
            attributes: [
              "style": "dashed", "arrowhead": "vee",
              "tooltip": .string("\(describe(parent)) creates \(describe(.reactor(reactor)))"),
            ])
        }
      case .released(let reactor):
        guard let at = column[.reactor(reactor)] else { break }
        lifelineBottom[at] = line - 6
        textNode(
          ["✕"], width: 14, at: x[at], line, fontSize: 12,
          extra: [
            "fontcolor": "#c62828", "tooltip": .string("\(describe(.reactor(reactor))) released"),
          ])
      case .action(let reactor, let id, let label, let sender, let from):
        guard let at = column[.reactor(reactor)] else { break }
        let tooltip =
          "action #\(id) \(label) to \(describe(.reactor(reactor))) from \(describe(sender))"
        if sender == .reactor(reactor) {
          let start = offset(reactor, from?.effect, row: offsetInPage)
          let (tail, head) = selfMessage(
            x: x[at] + start, top: line, tooltip: tooltip, onBox: from?.effect != nil)
          chain(reactor, from?.effect, to: tail)
          actionAnchor[ActionKey(reactor: reactor, action: id)] = head
          textNode(
            text.label, width: text.labelWidth, at: x[at] + start + 30 + text.labelWidth / 2,
            down + geometry.labelCenter)
          break
        }
        guard let senderX = lifelineX(sender) else { break }
        var tailX = senderX
        if case .reactor(let origin) = sender {
          tailX += offset(origin, from?.effect, row: offsetInPage)
        }
        let tail = anchor(tailX, line)
        if case .reactor(let origin) = sender { chain(origin, from?.effect, to: tail) }
        let head = anchor(x[at], line)
        graph.addEdge(from: tail, to: head, attributes: ["tooltip": .string(tooltip)])
        actionAnchor[ActionKey(reactor: reactor, action: id)] = head
        textNode(
          text.label, width: text.labelWidth, at: (tailX + x[at]) / 2,
          down + geometry.labelCenter, extra: Self.acrossLifelines(tooltip))
      case .effectStarted(let reactor, let effect, let action, let name):
        guard let at = column[.reactor(reactor)] else { break }
        let key = EffectKey(reactor: reactor, effect: effect)
        let start = offset(reactor, effect, row: offsetInPage)
        let node = anchor(x[at] + start, line)
        effectNames[key] = (name ?? "effect") + " #\(effect)"
        if let origin = actionAnchor[ActionKey(reactor: reactor, action: action)] {
          graph.addEdge(
            from: origin, to: node,
            attributes: [
              "arrowhead": "none", "color": "#2e5c8a", "penwidth": "1.2",
              "tooltip": .string("action #\(action) starts \(effectNames[key]!)"),
            ])
        }
        lastAnchor[key] = node
        activationTop[key] = line - 2
        textNode(
          text.label, width: text.labelWidth,
          at: x[at] + start + Self.activationWidth / 2 + 4 + text.labelWidth / 2, line,
          fontSize: 8, extra: ["fontcolor": "#2e5c8a"])
      case .effectEnded(let reactor, let effect, let outcome):
        guard let at = column[.reactor(reactor)] else { break }
        let key = EffectKey(reactor: reactor, effect: effect)
        let start = offset(reactor, effect, row: offsetInPage)
        let node = anchor(x[at] + start, line)
        chain(reactor, effect, to: node)
        lastAnchor[key] = nil
        let top = activationTop.removeValue(forKey: key) ?? line
        activations.append(
          (
            key, top, line + 2, outcome,
            openAtPage.contains { $0.reactor == reactor && $0.effect == effect }
              && top < headerTop + Self.headerHeight + 14, effectNames[key] ?? "effect #\(effect)"
          ))
        let color = Self.appearance(of: outcome).color
        textNode(
          text.label, width: text.labelWidth,
          at: x[at] + start + Self.activationWidth / 2 + 4 + text.labelWidth / 2, line,
          fontSize: 8, extra: ["fontcolor": .string(color)])
      case .mutation(let reactor, let id, let label, let cause, let from, let publisher, _):
        guard let at = column[.reactor(reactor)] else { break }
        let tooltip = "mutation #\(id) \(label) of \(describe(.reactor(reactor)))"
        if case .stream(let stream) = cause, let streamAt = column[.stream(stream)] {
          let mergerX = x[at]
          let depth = Double(deepest[reactor] ?? 0) * Self.slotOffset
          var serviceTop: DOTNode.ID?
          if let publisher, let px = lifelineX(publisher) {
            var tailX = px
            if case .reactor(let origin) = publisher {
              tailX += offset(origin, from?.effect, row: offsetInPage)
            }
            let tail = anchor(tailX, down + geometry.publishLine)
            if case .reactor(let origin) = publisher { chain(origin, from?.effect, to: tail) }
            let top = anchor(x[streamAt], down + geometry.publishLine)
            graph.addEdge(
              from: tail, to: top,
              attributes: [
                "style": "dashed", "arrowhead": "vee",
                "tooltip": .string(
                  "\(describe(publisher))" + (from.map { " (\($0))" } ?? "")
                    + " publishes to \(stream)"),
              ])
            serviceTop = top
          }
          let delivery = anchor(x[streamAt], line)
          if let serviceTop {
            graph.addEdge(
              from: serviceTop, to: delivery,
              attributes: [
                "arrowhead": "none", "color": "#b26a00", "penwidth": "1.2",
                "tooltip": .string("\(stream) delivers"),
              ])
          }
          let head = anchor(mergerX, line)
          graph.addEdge(
            from: delivery, to: head,
            attributes: ["tooltip": .string(tooltip + " ← \(stream)"), "color": "#b26a00"])
          textNode(
            text.label, width: text.labelWidth, at: (x[streamAt] + mergerX) / 2,
            down + geometry.labelCenter, extra: Self.acrossLifelines(tooltip))
          note(
            text.note, width: text.noteWidth, x: mergerX + depth + 12 + text.noteWidth / 2,
            down + geometry.noteCenter, height: geometry.noteHeight)
        } else {
          var effect: Int?
          var action: Int?
          switch cause {
          case .effect(let id, let by): (effect, action) = (id, by)
          case .action(let by): action = by
          case .stream: break
          }
          let start = offset(reactor, effect, row: offsetInPage)
          let (tail, _) = selfMessage(
            x: x[at] + start, top: line, tooltip: tooltip, onBox: effect != nil)
          if effect != nil {
            chain(reactor, effect, to: tail)
          } else if let action,
            let origin = actionAnchor[ActionKey(reactor: reactor, action: action)]
          {
            graph.addEdge(
              from: origin, to: tail,
              attributes: [
                "arrowhead": "none", "color": "#2e5c8a", "penwidth": "1.2",
                "tooltip": .string("action #\(action) returns \(label)"),
              ])
            actionAnchor[ActionKey(reactor: reactor, action: action)] = tail
          }
          let labelX = x[at] + start + 30
          textNode(
            text.label, width: text.labelWidth, at: labelX + text.labelWidth / 2,
            down + geometry.labelCenter, extra: ["tooltip": .string(tooltip)])
          note(
            text.note, width: text.noteWidth, x: labelX + text.noteWidth / 2,
            down + geometry.noteCenter, height: geometry.noteHeight)
        }
      case .streamEnded(let reactor, let stream, let error):
        guard let at = column[.reactor(reactor)], let streamX = lifelineX(.stream(stream))
        else { break }
        let tail = anchor(streamX, line)
        let head = anchor(x[at], line)
        let tooltip = "stream \(stream) ended" + (error.map { ": " + $0 } ?? "")
        graph.addEdge(
          from: tail, to: head,
          attributes: [
            "style": "dashed", "color": error == nil ? "gray40" : "#c62828",
            "tooltip": .string(tooltip),
          ])
        textNode(
          text.label, width: text.labelWidth, at: (streamX + x[at]) / 2,
          down + geometry.labelCenter, extra: Self.acrossLifelines(tooltip))
      case .gap(let dropped):
        let left = (x.first ?? 0) - 20
        let width = max(rightEdge - left, text.labelWidth + 8)
        textNode(
          text.label, width: width, at: left + width / 2, line,
          extra: [
            "shape": "box", "style": "filled,bold", "fillcolor": "#fde0dc", "color": "#c62828",
            "tooltip": .string(
              "the recorder dropped \(dropped) events here: the session is incomplete"),
          ])
      }
      down += geometry.height
    }
    let bottom = down + 4

    // Activations still running at the page's end.
    for (key, top) in activationTop {
      activations.append(
        (
          key, top, bottom, nil, top < headerTop + Self.headerHeight + 14,
          effectNames[key] ?? "effect #\(key.effect)"
        ))
    }
    // Lifelines, then activation boxes over them.
    for index in columns.indices {
      guard let top = lifelineTop[index] else { continue }
      let tail = anchor(x[index], top)
      let head = anchor(x[index], lifelineBottom[index] ?? bottom)
      graph.addEdge(
        from: tail, to: head,
        attributes: [
          "arrowhead": "none", "style": "dashed", "color": "gray60", "penwidth": "0.8",
          "tooltip": .string("lifeline of \(describe(columns[index]))"),
        ])
    }
    for activation in activations.sorted(by: {
      ($0.top, $0.key.reactor, $0.key.effect) < ($1.top, $1.key.reactor, $1.key.effect)
    }) {
      guard let at = column[.reactor(activation.key.reactor)] else { continue }
      let taken = Self.slotNumber(of: activation.key, in: rowSlots, open: openAtPage)
      let centerX = x[at] + Double(taken) * Self.slotOffset
      let look = Self.appearance(of: activation.outcome)
      let isRunning = activation.outcome == nil
      graph.addNode(
        label: "",
        attributes: [
          "shape": "box", "pos": pos(centerX, (activation.top + activation.bottom) / 2),
          "width": inches(Self.activationWidth),
          "height": inches(max(activation.bottom - activation.top, 4)),
          "style": .string(
            activation.isOpenAbove || isRunning
              ? String(look.style.trimmingPrefix("rounded,")) : look.style),
          "fillcolor": .string(look.fill), "color": .string(look.color),
          "tooltip": .string(
            "\(activation.name) of \(describe(.reactor(activation.key.reactor))): "
              + Self.outcomeText(activation.outcome)),
        ])
    }

    // The legend of effect outcomes, under the rows.
    let legendY = bottom + 22
    textNode(["effects:"], width: 48, at: stepColumnX + 4, legendY, extra: ["fontcolor": "gray25"])
    let outcomes: [TraceEvent.Outcome?] = [.finished, .cancelled, .failed(""), nil]
    for (index, outcome) in outcomes.enumerated() {
      let look = Self.appearance(of: outcome)
      let text =
        outcome.map { if case .failed = $0 { "failed" } else { Self.outcomeText($0) } } ?? "running"
      graph.addNode(
        label: .text(text),
        attributes: [
          "shape": "box", "pos": pos(stepColumnX + 64 + Double(index) * 76, legendY),
          "width": "0.95", "height": "0.26", "fontsize": "8", "fillcolor": .string(look.fill),
          "color": .string(look.color), "style": .string(look.style),
          "fontcolor": .string(look.color),
        ])
    }
    return graph
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

  private static func slotNumber(
    of key: EffectKey, in rowSlots: [[EffectKey: Int]], open: [OpenEffect]
  ) -> Int {
    for slots in rowSlots { if let taken = slots[key] { return taken } }
    return 0
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
