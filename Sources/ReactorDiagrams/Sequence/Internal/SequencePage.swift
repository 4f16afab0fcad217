import ReactorTracing

/// The layout of one page of a ``SequenceDiagram``, in the steps that make it: who is on the
/// page, the text of each row, the slot each effect takes beside its reactor's lifeline, and
/// where each lifeline stands.
///
/// ``SequencePageDrawing`` draws the page from it.
struct SequencePage {
  typealias Diagram = SequenceDiagram
  typealias EffectKey = SequenceDiagram.EffectKey

  /// The diagram the page is cut from.
  let diagram: Diagram
  /// The page's rows, as indices of the diagram's.
  let range: Range<Int>
  /// The reactors alive when the page opens.
  let aliveAtPage: [Int]
  /// The effects running when the page opens.
  let openAtPage: [Diagram.OpenEffect]
  /// Who has a lifeline on this page, left to right.
  let columns: [Diagram.Participant]
  /// Each participant's index in ``columns``.
  let column: [Diagram.Participant: Int]
  /// The text of each of the page's rows.
  let texts: [Diagram.RowText]
  /// The width and lines of each column's header.
  let headers: [(Double, [String])]
  /// The slot each running effect takes, for each of the page's rows.
  let rowSlots: [[EffectKey: Int]]
  /// The deepest slot each reactor's effects take on the page.
  let deepest: [Int: Int]
  /// Each column's lifeline, from the left, in points.
  let x: [Double]
  /// The right edge of the rightmost column's labels, in points.
  let rightEdge: Double

  init(_ diagram: Diagram, range: Range<Int>) {
    self.diagram = diagram
    self.range = range
    (aliveAtPage, openAtPage) = Self.state(of: diagram, before: range.lowerBound)
    columns = Self.participants(of: diagram, in: range, alive: aliveAtPage)
    column = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    texts = diagram.rows[range].map { Diagram.text(of: $0.step) }
    headers = columns.map { participant in
      TimelineDiagram.fit(diagram.headerText(of: participant), fontSize: 9, lines: 2)
    }
    (rowSlots, deepest) = Self.effectSlots(of: diagram, in: range, open: openAtPage)
    let right = Self.roomRightOfLifelines(
      of: diagram, in: range, texts: texts, headers: headers, column: column, deepest: deepest)
    x = Self.lifelinePositions(
      of: diagram, in: range, texts: texts, headers: headers, column: column, right: right)
    rightEdge = (x.last ?? 0) + max(right.last ?? 0, 40) + 8
  }

  /// How far right of its reactor's lifeline an effect's activation is drawn in a row of the
  /// page: 0 for no effect.
  func offset(_ reactor: Int, _ effect: Int?, row: Int) -> Double {
    guard let effect, let taken = rowSlots[row][EffectKey(reactor: reactor, effect: effect)]
    else { return 0 }
    return Double(taken) * Diagram.slotOffset
  }

  /// What was alive and running when a page opens.
  private static func state(
    of diagram: Diagram, before index: Int
  ) -> (alive: [Int], open: [Diagram.OpenEffect]) {
    var alive = diagram.aliveAtStart
    var open = diagram.openAtStart
    for row in diagram.rows[..<index] {
      switch row.step {
      case .created(let reactor, _): alive.append(reactor)
      case .released(let reactor):
        alive.removeAll { $0 == reactor }
        open.removeAll { $0.reactor == reactor }
      case .effectStarted(let reactor, let effect, let action, let name):
        open.append(
          Diagram.OpenEffect(reactor: reactor, effect: effect, action: action, name: name))
      case .effectEnded(let reactor, let effect, _):
        open.removeAll { $0.reactor == reactor && $0.effect == effect }
      default: break
      }
    }
    return (alive, open)
  }

  /// Who is on the page: the reactors alive when it opens and every participant its rows
  /// name, in the diagram's order.
  private static func participants(
    of diagram: Diagram, in range: Range<Int>, alive: [Int]
  ) -> [Diagram.Participant] {
    var used: Set<Diagram.Participant> = Set(alive.map(Diagram.Participant.reactor))
    for row in diagram.rows[range] {
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
    return diagram.participants.filter(used.contains)
  }

  /// Effect slots: effects of one reactor that overlap sit side by side.
  ///
  /// - Returns: Each row's slots, and each reactor's deepest slot.
  private static func effectSlots(
    of diagram: Diagram, in range: Range<Int>, open: [Diagram.OpenEffect]
  ) -> (rowSlots: [[EffectKey: Int]], deepest: [Int: Int]) {
    var slot: [EffectKey: Int] = [:]
    var slotsInUse: [Int: Set<Int>] = [:]
    func take(_ key: EffectKey) {
      var free = 0
      while slotsInUse[key.reactor, default: []].contains(free) { free += 1 }
      slotsInUse[key.reactor, default: []].insert(free)
      slot[key] = free
    }
    for effect in open { take(EffectKey(reactor: effect.reactor, effect: effect.effect)) }
    var rowSlots: [[EffectKey: Int]] = []
    var deepest: [Int: Int] = [:]
    for row in diagram.rows[range] {
      switch row.step {
      case .effectStarted(let reactor, let effect, _, _):
        take(EffectKey(reactor: reactor, effect: effect))
      case .released(let reactor):
        slotsInUse[reactor] = nil
      default: break
      }
      for (key, value) in slot { deepest[key.reactor] = max(deepest[key.reactor] ?? 0, value) }
      rowSlots.append(slot)
      switch row.step {
      case .effectEnded(let reactor, let effect, _):
        let key = EffectKey(reactor: reactor, effect: effect)
        if let taken = slot.removeValue(forKey: key) { slotsInUse[reactor]?.remove(taken) }
      case .released(let reactor):
        // Its release ended the effects it still ran.
        slot = slot.filter { $0.key.reactor != reactor }
      default: break
      }
    }
    return (rowSlots, deepest)
  }

  /// The room each column needs to the right of its lifeline for its own labels and notes.
  private static func roomRightOfLifelines(
    of diagram: Diagram, in range: Range<Int>, texts: [Diagram.RowText],
    headers: [(Double, [String])], column: [Diagram.Participant: Int], deepest: [Int: Int]
  ) -> [Double] {
    var right = headers.map { $0.0 / 2 }
    for (index, row) in diagram.rows[range].enumerated() {
      let text = texts[index]
      switch row.step {
      case .action(let reactor, _, _, let sender, _) where sender == .reactor(reactor):
        if let at = column[.reactor(reactor)] {
          right[at] = max(right[at], 32 + text.labelWidth)
        }
      case .mutation(let reactor, _, _, let cause, _, _, _):
        guard let at = column[.reactor(reactor)] else { break }
        let depth = Double(deepest[reactor] ?? 0) * Diagram.slotOffset
        if case .stream = cause {
          right[at] = max(right[at], depth + 14 + text.noteWidth)
        } else {
          right[at] = max(right[at], depth + 32 + max(text.labelWidth, text.noteWidth))
        }
      case .effectStarted(let reactor, _, _, _), .effectEnded(let reactor, _, _):
        guard let at = column[.reactor(reactor)] else { break }
        let depth = Double(deepest[reactor] ?? 0) * Diagram.slotOffset
        right[at] = max(right[at], depth + Diagram.activationWidth + 4 + text.labelWidth)
      default: break
      }
    }
    return right
  }

  /// Each column's lifeline: far enough from the one before for its room and both headers,
  /// then widened so that each message's label fits between the lifelines it joins.
  private static func lifelinePositions(
    of diagram: Diagram, in range: Range<Int>, texts: [Diagram.RowText],
    headers: [(Double, [String])], column: [Diagram.Participant: Int], right: [Double]
  ) -> [Double] {
    var x = Array(repeating: 0.0, count: headers.count)
    for index in headers.indices {
      if index == 0 {
        x[index] = Diagram.eventColumnWidth + 12 + headers[index].0 / 2
      } else {
        x[index] =
          x[index - 1]
          + max(right[index - 1] + 14, headers[index - 1].0 / 2 + headers[index].0 / 2 + 16, 64)
      }
    }
    // Messages between columns: the label fits between their lifelines.
    var spans: [(from: Int, to: Int, width: Double)] = []
    for (index, row) in diagram.rows[range].enumerated() {
      var ends: (Diagram.Participant, Diagram.Participant)?
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
    return x
  }
}
