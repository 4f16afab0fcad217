import ReactorTracing

/// Draws one page of a ``SequenceDiagram`` from its ``SequencePage`` layout, into a graph
/// whose every node is pinned: the headers, the rows (``SequencePageDrawing+Rows``), the
/// lifelines and activation boxes, and the legend, in that order.
///
/// The order matters: nodes are numbered as they are added, and the DOT lists them so.
struct SequencePageDrawing {
  typealias Diagram = SequenceDiagram
  typealias EffectKey = SequenceDiagram.EffectKey
  typealias ActionKey = SequenceDiagram.ActionKey

  /// An effect's activation box: from its start (or the page's top) to its end (or the
  /// page's bottom).
  struct Activation {
    var key: EffectKey
    var top: Double
    var bottom: Double
    var outcome: TraceEvent.Outcome?
    /// Whether it started on an earlier page.
    var isOpenAbove: Bool
    var name: String
    /// Whether its reactor's release ended it, while it ran.
    var isEndedByRelease = false
  }

  /// The top of the headers along the top, in points.
  static let headerTop = 8.0
  /// The top of the first row, in points.
  static let rowsTop = headerTop + Diagram.headerHeight + 14
  /// The centre of the column of event numbers and times.
  static let stepColumnX = Diagram.eventColumnWidth / 2

  let page: SequencePage
  /// The graph drawn so far.
  var graph: DOTGraph

  /// Where each column's lifeline starts (under its header) and ends (at its release).
  var lifelineTop: [Int: Double] = [:]
  var lifelineBottom: [Int: Double] = [:]
  /// The last point drawn on each running effect's thread.
  var lastAnchor: [EffectKey: DOTNode.ID] = [:]
  /// Where each running effect's activation box starts.
  var activationTop: [EffectKey: Double] = [:]
  /// Where each action's thread was last drawn to.
  var actionAnchor: [ActionKey: DOTNode.ID] = [:]
  /// The activation boxes of the effects that ended.
  var activations: [Activation] = []
  /// Each effect's name and number, for tooltips.
  var effectNames: [EffectKey: String] = [:]

  /// Starts the page: an empty graph with `title`, and the effects running when it opens.
  init(_ page: SequencePage, title: String) {
    self.page = page
    graph = DOTGraph(
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
    graph.label = .text(title)
    for effect in page.openAtPage {
      let key = EffectKey(reactor: effect.reactor, effect: effect.effect)
      activationTop[key] = Self.rowsTop - 8
    }
    for effect in page.openAtPage {
      effectNames[EffectKey(reactor: effect.reactor, effect: effect.effect)] =
        (effect.name ?? "effect") + " #\(effect.effect)"
    }
  }

  // MARK: Steps

  /// Headers along the top, for whoever is there when the page opens.
  mutating func drawHeaders() {
    for index in page.columns.indices {
      if case .reactor(let id) = page.columns[index], !page.aliveAtPage.contains(id) { continue }
      _ = header(index, centre: Self.headerTop + Diagram.headerHeight / 2)
    }
  }

  /// Lifelines, then activation boxes over them, the boxes of the effects still running at
  /// the page's end reaching down to `bottom`.
  mutating func drawLifelinesAndActivations(bottom: Double) {
    for (key, top) in activationTop {
      activations.append(
        Activation(
          key: key, top: top, bottom: bottom, outcome: nil, isOpenAbove: top < Self.rowsTop,
          name: effectNames[key] ?? "effect #\(key.effect)"))
    }
    for index in page.columns.indices {
      guard let top = lifelineTop[index] else { continue }
      let tail = anchor(page.x[index], top)
      let head = anchor(page.x[index], lifelineBottom[index] ?? bottom)
      graph.addEdge(
        from: tail, to: head,
        attributes: [
          "arrowhead": "none", "style": "dashed", "color": "gray60", "penwidth": "0.8",
          "tooltip": .string("lifeline of \(describe(page.columns[index]))"),
        ])
    }
    for activation in activations.sorted(by: {
      ($0.top, $0.key.reactor, $0.key.effect) < ($1.top, $1.key.reactor, $1.key.effect)
    }) {
      guard let at = page.column[.reactor(activation.key.reactor)] else { continue }
      let taken = Self.slotNumber(of: activation.key, in: page.rowSlots)
      let centerX = page.x[at] + Double(taken) * Diagram.slotOffset
      // An effect its reactor's release ended is over, cancelled with the reactor.
      let look = Diagram.appearance(
        of: activation.isEndedByRelease ? .cancelled : activation.outcome)
      let isRunning = activation.outcome == nil && !activation.isEndedByRelease
      graph.addNode(
        label: "",
        attributes: [
          "shape": "box", "pos": pos(centerX, (activation.top + activation.bottom) / 2),
          "width": inches(Diagram.activationWidth),
          "height": inches(max(activation.bottom - activation.top, 4)),
          "style": .string(
            activation.isOpenAbove || isRunning
              ? String(look.style.trimmingPrefix("rounded,")) : look.style),
          "fillcolor": .string(look.fill), "color": .string(look.color),
          "tooltip": .string(
            "\(activation.name) of \(describe(.reactor(activation.key.reactor))): "
              + (activation.isEndedByRelease
                ? "still running when the reactor was released"
                : Diagram.outcomeText(activation.outcome))),
        ])
    }
  }

  /// The legend of effect outcomes, under the rows, whose bottom is `bottom`.
  mutating func drawLegend(bottom: Double) {
    let legendY = bottom + 22
    textNode(
      ["effects:"], width: 48, at: Self.stepColumnX + 4, legendY, extra: ["fontcolor": "gray25"])
    let outcomes: [TraceEvent.Outcome?] = [.finished, .cancelled, .failed(""), nil]
    for (index, outcome) in outcomes.enumerated() {
      let look = Diagram.appearance(of: outcome)
      let text =
        outcome.map { if case .failed = $0 { "failed" } else { Diagram.outcomeText($0) } }
        ?? "running"
      graph.addNode(
        label: .text(text),
        attributes: [
          "shape": "box", "pos": pos(Self.stepColumnX + 64 + Double(index) * 76, legendY),
          "width": "0.95", "height": "0.26", "fontsize": "8", "fillcolor": .string(look.fill),
          "color": .string(look.color), "style": .string(look.style),
          "fontcolor": .string(look.color),
        ])
    }
  }

  // MARK: Pieces

  /// A pinned position, `down` points below the top.
  func pos(_ px: Double, _ down: Double) -> DOTValue {
    .string(TimelineDiagram.number(px) + "," + TimelineDiagram.number(-down) + "!")
  }

  func inches(_ points: Double) -> DOTValue { .string(TimelineDiagram.inches(points)) }

  /// An invisible point that edges start and end at.
  mutating func anchor(_ px: Double, _ down: Double) -> DOTNode.ID {
    graph.addNode(
      label: "",
      attributes: [
        "shape": "point", "width": "0.02", "height": "0.02", "style": "invis",
        "pos": pos(px, down),
      ])
  }

  /// A box of text centred at (`px`, `down`).
  mutating func textNode(
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
  mutating func selfMessage(
    x: Double, top: Double, tooltip: String, onBox: Bool
  ) -> (DOTNode.ID, DOTNode.ID) {
    // It leaves from the lifeline (under the box, if any) and comes back to the box's edge.
    let start = anchor(x, top)
    let out = anchor(x + 24, top)
    let back = anchor(x + 24, top + 12)
    let end = anchor(x + (onBox ? Diagram.activationWidth / 2 : 0), top + 12)
    let line: [String: DOTValue] = ["arrowhead": "none", "tooltip": .string(tooltip)]
    graph.addEdge(from: start, to: out, attributes: line)
    graph.addEdge(from: out, to: back, attributes: line)
    graph.addEdge(from: back, to: end, attributes: ["tooltip": .string(tooltip)])
    return (start, end)
  }

  /// A note of what a mutation changed.
  mutating func note(
    _ lines: [String], width: Double, x: Double, _ down: Double, height: Double
  ) {
    graph.addNode(
      label: .text(lines.joined(separator: "\n")),
      attributes: [
        "shape": "note", "style": "filled", "fillcolor": "#fffbe6", "color": "#c9b458",
        "fontsize": "8", "pos": pos(x, down), "width": inches(width),
        "height": inches(height - 2), "tooltip": .string(lines.joined(separator: "\n")),
      ])
  }

  /// A column's header centred `centre` points down: at the top, or where its reactor is
  /// created; its lifeline starts under it.
  mutating func header(_ index: Int, centre: Double) -> DOTNode.ID {
    let participant = page.columns[index]
    var fill = "#eef2f7"
    var shape = "box"
    var style = "rounded,filled"
    switch participant {
    case .user: fill = "#f6f6f6"
    case .stream: (fill, shape, style) = ("#fff4e0", "box", "filled")
    case .others: (fill, style) = ("#f6f6f6", "rounded,dashed,filled")
    case .reactor: break
    }
    let (width, lines) = page.headers[index]
    lifelineTop[index] = centre + Diagram.headerHeight / 2
    return graph.addNode(
      label: .text(lines.joined(separator: "\n")),
      attributes: [
        "pos": pos(page.x[index], centre), "width": inches(width),
        "height": inches(Diagram.headerHeight), "shape": .string(shape),
        "style": .string(style), "fillcolor": .string(fill), "color": "#3b6ea5",
        "fontsize": "9",
        "tooltip": .string(page.diagram.headerText(of: participant).joined(separator: " ")),
      ])
  }

  /// Continues the thread of a reactor's effect to `node`; nothing for no effect.
  mutating func chain(_ reactor: Int, _ effect: Int?, to node: DOTNode.ID) {
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

  /// A participant as tooltips name it: `list #1 · TaskAppListReactor`.
  func describe(_ participant: Diagram.Participant) -> String {
    page.diagram.headerText(of: participant).joined(separator: " ")
  }

  /// The slot an effect's activation box takes: the first it took on the page.
  private static func slotNumber(of key: EffectKey, in rowSlots: [[EffectKey: Int]]) -> Int {
    for slots in rowSlots { if let taken = slots[key] { return taken } }
    return 0
  }
}
