import ReactorTracing

extension SequenceDiagram {
  /// Returns the diagram as a Mermaid `sequenceDiagram`, which GitHub renders in Markdown.
  ///
  /// Participants get generated ids (`r1`, `s1`) and their titles as aliases; a reactor
  /// created by another one is declared where it was created (`create participant`). Effects
  /// are activations (`activate`/`deactivate`) closed by a note of their outcome; a mutation
  /// is a self-message with a note of what it changed, or, when a stream caused it, an async
  /// message from its publisher to the stream and a message from the stream to the reactor.
  /// Text is kept on one line per message and characters Mermaid reads as syntax are written
  /// as entity codes, so no label can change the diagram.
  ///
  /// ```
  /// sequenceDiagram
  ///     actor user
  ///     participant r1 as list (#35;1 TaskAppListReactor)
  ///     user->>r1: refresh
  ///     activate r1
  /// ```
  ///
  /// - Returns: The diagram's text, ending in a newline.
  public func mermaid() -> String {
    var lines = ["sequenceDiagram"]
    let streams = participants.compactMap {
      if case .stream(let name) = $0 { return name }
      return nil
    }
    func id(_ participant: Participant) -> String {
      switch participant {
      case .user: "user"
      case .others: "others"
      case .reactor(let reactor): "r\(reactor)"
      case .stream(let name): "s\((streams.firstIndex(of: name) ?? 0) + 1)"
      }
    }
    func escaped(_ text: String) -> String { TransitionGraph.mermaidEscaped(text) }
    // A message's label on its one line: module prefixes dropped, lists cut by meaning.
    func short(_ label: String) -> String {
      DescriptionText.short(label, budget: DescriptionText.lineBudget)
    }
    func alias(_ participant: Participant) -> String {
      escaped(headerText(of: participant).joined(separator: " "))
    }
    func declaration(_ participant: Participant) -> String {
      participant == .user
        ? "actor user" : "participant \(id(participant)) as \(alias(participant))"
    }
    let created = Set(
      rows.compactMap { row -> Participant? in
        // Reactors without a parent stand at the top; children appear where made.
        if case .created(let reactor, _?) = row.step {
          return .reactor(reactor)
        }
        return nil
      })
    for participant in participants where !created.contains(participant) {
      lines.append("    " + declaration(participant))
    }
    var active: Set<EffectKey> = []
    for effect in openAtStart {
      let key = EffectKey(reactor: effect.reactor, effect: effect.effect)
      guard participants.contains(.reactor(effect.reactor)) else { continue }
      active.insert(key)
      lines.append("    activate r\(effect.reactor)")
    }
    for row in rows {
      let stamp = " (#35;\(row.sequence))"
      switch row.step {
      case .created(let reactor, let parent):
        guard let parent, created.contains(.reactor(reactor)) else { break }
        lines.append("    create " + declaration(.reactor(reactor)))
        lines.append("    \(id(parent))-->>r\(reactor): creates" + stamp)
      case .released(let reactor):
        for key in active where key.reactor == reactor {
          active.remove(key)
          lines.append("    deactivate r\(reactor)")
        }
        lines.append("    Note over r\(reactor): released" + stamp)
      case .action(let reactor, _, let label, let sender, _):
        lines.append("    \(id(sender))->>r\(reactor): " + escaped(short(label)) + stamp)
      case .effectStarted(let reactor, let effect, _, let name):
        active.insert(EffectKey(reactor: reactor, effect: effect))
        lines.append("    activate r\(reactor)")
        lines.append(
          "    Note right of r\(reactor): " + escaped((name ?? "effect") + " #\(effect)")
            + " starts" + stamp)
      case .effectEnded(let reactor, let effect, let outcome):
        lines.append(
          "    Note right of r\(reactor): "
            + escaped("effect #\(effect) " + Self.outcomeText(outcome)) + stamp)
        if active.remove(EffectKey(reactor: reactor, effect: effect)) != nil {
          lines.append("    deactivate r\(reactor)")
        }
      case .mutation(let reactor, _, let label, let cause, _, let publisher, let changes):
        if case .stream(let stream) = cause {
          if let publisher {
            lines.append("    \(id(publisher))-)\(id(.stream(stream))): publishes" + stamp)
          }
          lines.append(
            "    \(id(.stream(stream)))->>r\(reactor): " + escaped(short(label)) + stamp)
        } else {
          lines.append("    r\(reactor)->>r\(reactor): " + escaped(short(label)) + stamp)
        }
        let note = (changes.isEmpty ? ["(unchanged)"] : changes).map(escaped)
        lines.append("    Note right of r\(reactor): " + note.joined(separator: "<br/>"))
      case .streamEnded(let reactor, let stream, let error):
        lines.append(
          "    \(id(.stream(stream)))--)r\(reactor): "
            + escaped("end " + (error.map { "✗ " + $0 } ?? "✓")) + stamp)
      case .gap(let dropped):
        guard let first = participants.first, let last = participants.last else {
          lines.append("    participant session")
          lines.append("    Note over session: \(dropped) events dropped" + stamp)
          break
        }
        let span =
          participants.count > 1
          ? "\(id(first)),\(id(last))" : id(first)
        lines.append("    Note over \(span): \(dropped) events dropped" + stamp)
      }
    }
    for key in active.sorted(by: { ($0.reactor, $0.effect) < ($1.reactor, $1.effect) }) {
      lines.append("    deactivate r\(key.reactor)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
