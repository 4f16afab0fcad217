import ReactorTracing

/// The update counts of the pulses in a state, while a trace is streamed: a mutation fired
/// a pulse when its count changed.
struct PulseCounts {
  private var fields: [String]
  private var counts: [JSONValue?]

  init(fields: [String], state: TraceHeader.State) {
    self.fields = fields
    counts = fields.map { Self.count(of: $0, in: state) }
  }

  /// The pulses a mutation fired, as `name: value`, updating the counts.
  mutating func fired(
    through change: TraceEvent.StateChange, state: TraceHeader.State
  ) -> [String] {
    guard !fields.isEmpty else { return [] }
    if case .diff(let operations) = change,
      !operations.contains(where: { operation in
        guard case .key(let name)? = operation.path.first else { return true }
        return fields.contains(name)
      })
    {
      return []
    }
    var events: [String] = []
    for (index, field) in fields.enumerated() {
      let count = Self.count(of: field, in: state)
      guard count != counts[index] else { continue }
      counts[index] = count
      var value: JSONValue?
      if case .json(let json) = state, let pulse = json[field] {
        value = StatePulse.value(of: pulse)
      }
      events.append(field + ": " + ValueText.short(value))
    }
    return events
  }

  private static func count(of field: String, in state: TraceHeader.State) -> JSONValue? {
    guard case .json(let json) = state else { return nil }
    return json[field].flatMap(StatePulse.count(of:))
  }
}
