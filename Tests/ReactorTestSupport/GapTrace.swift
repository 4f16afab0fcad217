public import ReactorTracing

/// `trace` as a recorder with the drop policy would have written it had it dropped the
/// events at `positions` (0-based): a gap in their place, the first mutation after it stored
/// as a snapshot of the state the trace had there, sequence numbers consecutive.
public func droppingEvents(at positions: Range<Int>, from trace: Trace) throws -> Trace {
  let reader = try TraceReader(bytes: trace.serialized)
  var events: [TraceEvent] = []
  var states: [TraceHeader.State] = []
  while let event = try reader.next() {
    events.append(event)
    states.append(reader.currentState)
  }
  var kept = Array(events[..<positions.lowerBound])
  kept.append(
    TraceEvent(
      sequence: 0, time: events[positions.lowerBound].time,
      kind: .gap(TraceEvent.Gap(droppedEvents: positions.count))))
  var needsSnapshot = true
  for index in positions.upperBound..<events.count {
    var event = events[index]
    if needsSnapshot, case .mutation(var mutation) = event.kind,
      case .json(let state) = states[index]
    {
      mutation.state = .snapshot(state)
      event.kind = .mutation(mutation)
      needsSnapshot = false
    }
    if case .end(var end) = event.kind {
      end.droppedEvents += positions.count
      event.kind = .end(end)
    }
    kept.append(event)
  }
  for index in kept.indices { kept[index].sequence = index + 1 }
  var header = trace.header
  header.version = TraceFormatVersion(major: 1, minor: 2)
  return Trace(header: header, events: kept)
}
