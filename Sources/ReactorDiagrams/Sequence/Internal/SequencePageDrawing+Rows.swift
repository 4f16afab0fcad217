import ReactorTracing

// The rows: each event's number and time at the left, then what its step draws.

extension SequencePageDrawing {
  /// Where one row is drawn: its index on the page, its text, its geometry and its top.
  struct RowPlace {
    var index: Int
    var text: Diagram.RowText
    var geometry: Diagram.RowGeometry
    /// The row's top, in points down from the page's.
    var top: Double
    /// The line of the row's main arrow or anchor.
    var line: Double
  }

  /// Draws the page's rows, top to bottom; returns the bottom of the last one.
  mutating func drawRows() -> Double {
    var down = Self.rowsTop
    var lastTime: Duration?
    for (offsetInPage, row) in page.diagram.rows[page.range].enumerated() {
      let text = page.texts[offsetInPage]
      let geometry = Diagram.geometry(of: row.step, text: text)
      let place = RowPlace(
        index: offsetInPage, text: text, geometry: geometry, top: down,
        line: down + geometry.line)
      // The event's number and time, at the left.
      var stamp = "#\(row.sequence)"
      if row.time != lastTime { stamp += "  " + TimelineDiagram.format(row.time) }
      lastTime = row.time
      // 10 points tall: every row's line is at least 5 points from its top and its bottom.
      textNode(
        [stamp], width: Diagram.eventColumnWidth, at: Self.stepColumnX, place.line, fontSize: 7,
        extra: ["fontcolor": "gray45", "height": inches(10)])
      draw(row.step, at: place)
      down += geometry.height
    }
    return down + 4
  }

  /// Draws what a row's step shows.
  private mutating func draw(_ step: Diagram.Step, at place: RowPlace) {
    switch step {
    case .created(let reactor, let parent):
      drawCreated(reactor, parent: parent, at: place)
    case .released(let reactor):
      drawReleased(reactor, at: place)
    case .action(let reactor, let id, let label, let sender, let from):
      drawAction(reactor, id: id, label: label, sender: sender, from: from, at: place)
    case .effectStarted(let reactor, let effect, let action, let name):
      drawEffectStarted(reactor, effect: effect, action: action, name: name, at: place)
    case .effectEnded(let reactor, let effect, let outcome):
      drawEffectEnded(reactor, effect: effect, outcome: outcome, at: place)
    case .mutation(let reactor, let id, let label, let cause, let from, let publisher, _):
      guard let at = page.column[.reactor(reactor)] else { break }
      let tooltip = "mutation #\(id) \(label) of \(describe(.reactor(reactor)))"
      if case .stream(let stream) = cause, let streamAt = page.column[.stream(stream)] {
        drawStreamMutation(
          reactor, column: at, stream: stream, streamColumn: streamAt, from: from,
          publisher: publisher, tooltip: tooltip, at: place)
      } else {
        drawOwnMutation(
          reactor, column: at, label: label, cause: cause, tooltip: tooltip, at: place)
      }
    case .streamEnded(let reactor, let stream, let error):
      drawStreamEnded(reactor, stream: stream, error: error, at: place)
    case .gap(let dropped):
      drawGap(dropped, at: place)
    }
  }

  private func lifelineX(_ participant: Diagram.Participant) -> Double? {
    page.column[participant].map { page.x[$0] }
  }

  /// A reactor's header where it is created, with a dashed arrow from its parent.
  private mutating func drawCreated(
    _ reactor: Int, parent: Diagram.Participant?, at place: RowPlace
  ) {
    guard let at = page.column[.reactor(reactor)] else { return }
    let box = header(at, centre: place.line)
    if let parent, let px = lifelineX(parent) {
      let tail = anchor(px, place.line)
      graph.addEdge(
        from: tail, to: box,
        attributes: [
          "style": "dashed", "arrowhead": "vee",
          "tooltip": .string("\(describe(parent)) creates \(describe(.reactor(reactor)))"),
        ])
    }
  }

  /// A cross where a reactor is released, its lifeline and the activation boxes of the
  /// effects it still ran ending above it.
  private mutating func drawReleased(_ reactor: Int, at place: RowPlace) {
    guard let at = page.column[.reactor(reactor)] else { return }
    lifelineBottom[at] = place.line - 6
    let ended = activationTop.keys.filter { $0.reactor == reactor }.sorted { $0.effect < $1.effect }
    for key in ended {
      let top = activationTop.removeValue(forKey: key) ?? place.line
      lastAnchor[key] = nil
      activations.append(
        Activation(
          key: key, top: top, bottom: max(place.line - 6, top), outcome: nil,
          isOpenAbove: top < Self.rowsTop, name: effectNames[key] ?? "effect #\(key.effect)",
          isEndedByRelease: true))
    }
    textNode(
      ["✕"], width: 14, at: page.x[at], place.line, fontSize: 12,
      extra: [
        "fontcolor": "#c62828", "tooltip": .string("\(describe(.reactor(reactor))) released"),
      ])
  }

  /// An action: a self-message when the reactor sends it itself, else an arrow from its
  /// sender.
  private mutating func drawAction(
    _ reactor: Int, id: Int, label: String, sender: Diagram.Participant,
    from: TraceEvent.ReactorOrigin?, at place: RowPlace
  ) {
    guard let at = page.column[.reactor(reactor)] else { return }
    let (text, geometry, down, line) = (place.text, place.geometry, place.top, place.line)
    let x = page.x
    let tooltip =
      "action #\(id) \(label) to \(describe(.reactor(reactor))) from \(describe(sender))"
    if sender == .reactor(reactor) {
      let start = page.offset(reactor, from?.effect, row: place.index)
      let (tail, head) = selfMessage(
        x: x[at] + start, top: line, tooltip: tooltip, onBox: from?.effect != nil)
      chain(reactor, from?.effect, to: tail)
      actionAnchor[ActionKey(reactor: reactor, action: id)] = head
      textNode(
        text.label, width: text.labelWidth, at: x[at] + start + 30 + text.labelWidth / 2,
        down + geometry.labelCenter)
      return
    }
    guard let senderX = lifelineX(sender) else { return }
    var tailX = senderX
    if case .reactor(let origin) = sender {
      tailX += page.offset(origin, from?.effect, row: place.index)
    }
    let tail = anchor(tailX, line)
    if case .reactor(let origin) = sender { chain(origin, from?.effect, to: tail) }
    let head = anchor(x[at], line)
    graph.addEdge(from: tail, to: head, attributes: ["tooltip": .string(tooltip)])
    actionAnchor[ActionKey(reactor: reactor, action: id)] = head
    textNode(
      text.label, width: text.labelWidth, at: (tailX + x[at]) / 2,
      down + geometry.labelCenter, extra: Diagram.acrossLifelines(tooltip))
  }

  /// An effect's start: its thread from the action that started it, and its name.
  private mutating func drawEffectStarted(
    _ reactor: Int, effect: Int, action: Int, name: String?, at place: RowPlace
  ) {
    guard let at = page.column[.reactor(reactor)] else { return }
    let (text, line) = (place.text, place.line)
    let key = EffectKey(reactor: reactor, effect: effect)
    let start = page.offset(reactor, effect, row: place.index)
    let node = anchor(page.x[at] + start, line)
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
      at: page.x[at] + start + Diagram.activationWidth / 2 + 4 + text.labelWidth / 2, line,
      fontSize: 8, extra: ["fontcolor": "#2e5c8a"])
  }

  /// An effect's end: its thread's last piece, its activation box, and its outcome.
  private mutating func drawEffectEnded(
    _ reactor: Int, effect: Int, outcome: TraceEvent.Outcome, at place: RowPlace
  ) {
    guard let at = page.column[.reactor(reactor)] else { return }
    let (text, line) = (place.text, place.line)
    let key = EffectKey(reactor: reactor, effect: effect)
    let start = page.offset(reactor, effect, row: place.index)
    let node = anchor(page.x[at] + start, line)
    chain(reactor, effect, to: node)
    lastAnchor[key] = nil
    let top = activationTop.removeValue(forKey: key) ?? line
    activations.append(
      Activation(
        key: key, top: top, bottom: line + 2, outcome: outcome,
        isOpenAbove: page.openAtPage.contains { $0.reactor == reactor && $0.effect == effect }
          && top < Self.rowsTop,
        name: effectNames[key] ?? "effect #\(effect)"))
    let color = Diagram.appearance(of: outcome).color
    textNode(
      text.label, width: text.labelWidth,
      at: page.x[at] + start + Diagram.activationWidth / 2 + 4 + text.labelWidth / 2, line,
      fontSize: 8, extra: ["fontcolor": .string(color)])
  }

  /// A mutation made from a stream's element: the publisher's dashed arrow to the stream,
  /// the stream's delivery to the reactor, its label and its note.
  private mutating func drawStreamMutation(
    _ reactor: Int, column at: Int, stream: String, streamColumn streamAt: Int,
    from: TraceEvent.ReactorOrigin?, publisher: Diagram.Participant?, tooltip: String,
    at place: RowPlace
  ) {
    let (text, geometry, down, line) = (place.text, place.geometry, place.top, place.line)
    let x = page.x
    let mergerX = x[at]
    let depth = Double(page.deepest[reactor] ?? 0) * Diagram.slotOffset
    var serviceTop: DOTNode.ID?
    if let publisher, let px = lifelineX(publisher) {
      var tailX = px
      if case .reactor(let origin) = publisher {
        tailX += page.offset(origin, from?.effect, row: place.index)
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
      down + geometry.labelCenter, extra: Diagram.acrossLifelines(tooltip))
    note(
      text.note, width: text.noteWidth, x: mergerX + depth + 12 + text.noteWidth / 2,
      down + geometry.noteCenter, height: geometry.noteHeight)
  }

  /// A mutation of the reactor's own action or effect: a self-message on the action's or
  /// effect's thread, its label and its note.
  private mutating func drawOwnMutation(
    _ reactor: Int, column at: Int, label: String, cause: TraceEvent.Cause, tooltip: String,
    at place: RowPlace
  ) {
    let (text, geometry, down, line) = (place.text, place.geometry, place.top, place.line)
    let x = page.x
    var effect: Int?
    var action: Int?
    switch cause {
    case .effect(let id, let by): (effect, action) = (id, by)
    case .action(let by): action = by
    case .stream: break
    }
    let start = page.offset(reactor, effect, row: place.index)
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

  /// A stream's end: a dashed arrow from the stream to the reactor.
  private mutating func drawStreamEnded(
    _ reactor: Int, stream: String, error: String?, at place: RowPlace
  ) {
    guard let at = page.column[.reactor(reactor)], let streamX = lifelineX(.stream(stream))
    else { return }
    let (text, geometry, down, line) = (place.text, place.geometry, place.top, place.line)
    let tail = anchor(streamX, line)
    let head = anchor(page.x[at], line)
    let tooltip = "stream \(stream) ended" + (error.map { ": " + $0 } ?? "")
    graph.addEdge(
      from: tail, to: head,
      attributes: [
        "style": "dashed", "color": error == nil ? "gray40" : "#c62828",
        "tooltip": .string(tooltip),
      ])
    textNode(
      text.label, width: text.labelWidth, at: (streamX + page.x[at]) / 2,
      down + geometry.labelCenter, extra: Diagram.acrossLifelines(tooltip))
  }

  /// Events the recorder dropped: a red band across the page.
  private mutating func drawGap(_ dropped: Int, at place: RowPlace) {
    let text = place.text
    let left = (page.x.first ?? 0) - 20
    let width = max(page.rightEdge - left, text.labelWidth + 8)
    textNode(
      text.label, width: width, at: left + width / 2, place.line,
      extra: [
        "shape": "box", "style": "filled,bold", "fillcolor": "#fde0dc", "color": "#c62828",
        "tooltip": .string(
          "the recorder dropped \(dropped) events here: the session is incomplete"),
      ])
  }
}
