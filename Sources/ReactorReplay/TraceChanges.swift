public import ReactorTracing

/// What changed between an old trace and a new one of the same run: the first divergence and
/// how many events were added, removed and changed.
///
/// ```swift
/// let changes = try TraceChanges(from: oldTrace, to: newTrace)
/// print(changes)  // 2 events added, 0 removed, 1 changed; first: the traces differ at …
/// ```
///
/// Events are aligned by what they are, not by position: kind and label (and for effects,
/// their name; for stream ends, the stream). An event of the new trace with no counterpart
/// in the old one was added, one of the old trace with none in the new one was removed, and
/// an aligned pair whose value, cause, outcome or resulting state differs was changed. Times
/// and ids are not compared, as ``TraceDiff`` does not.
public struct TraceChanges: Sendable, Hashable {
  /// Where the traces first differ, or `nil` when they record the same events and states.
  public var firstDivergence: TraceDivergence?
  /// How many events only the new trace has.
  public var added: Int
  /// How many events only the old trace has.
  public var removed: Int
  /// How many events both have, with another value, cause, outcome or state.
  public var changed: Int

  /// Compares two traces held in memory.
  /// - Parameters:
  ///   - old: The trace as it was.
  ///   - new: The trace as it is now.
  /// - Throws: ``TraceReadError`` when either trace is inconsistent.
  public init(from old: Trace, to new: Trace) throws(TraceReadError) {
    // Recorded through another reactor type on purpose: compare what they recorded.
    var renamed = old
    renamed.header.reactor = new.header.reactor
    firstDivergence = try TraceDiff.firstDivergence(renamed, new)
    let oldEvents = Self.comparable(old.events)
    let newEvents = Self.comparable(new.events)
    let difference = newEvents.map(\.identity).difference(from: oldEvents.map(\.identity))
    var removedOffsets = Set<Int>()
    var insertedOffsets = Set<Int>()
    for change in difference {
      switch change {
      case .remove(let offset, _, _): removedOffsets.insert(offset)
      case .insert(let offset, _, _): insertedOffsets.insert(offset)
      }
    }
    added = insertedOffsets.count
    removed = removedOffsets.count
    let keptOld = oldEvents.indices.filter { !removedOffsets.contains($0) }
    let keptNew = newEvents.indices.filter { !insertedOffsets.contains($0) }
    changed = zip(keptOld, keptNew).count { oldEvents[$0].details != newEvents[$1].details }
  }

  /// Whether the traces record the same events and states.
  public var isEmpty: Bool { firstDivergence == nil }

  /// An event as the comparison sees it: what it is, and the rest.
  private struct Comparable {
    var identity: String
    var details: String
  }

  private static func comparable(_ events: [TraceEvent]) -> [Comparable] {
    var actionLabels: [Int: String] = [:]
    return events.map { event in
      switch event.kind {
      case .action(let action):
        actionLabels[action.id] = action.label
        return Comparable(
          identity: "action \(action.label)",
          details: "\(action.value?.serializedString ?? "") \(action.source)")
      case .effectStarted(let start):
        return Comparable(
          identity: "effectStart \(start.name ?? "")",
          details: actionLabels[start.action] ?? "")
      case .effectEnded(let end):
        return Comparable(identity: "effectEnd", details: "\(end.outcome)")
      case .mutation(let mutation):
        let cause: String =
          switch mutation.cause {
          case .action(let id), .effect(_, let id): actionLabels[id] ?? ""
          case .stream(let name): "stream \(name)"
          }
        return Comparable(
          identity: "mutation \(mutation.label)",
          details: "\(mutation.value?.serializedString ?? "") \(cause) \(mutation.stateHash)")
      case .streamEnded(let end):
        return Comparable(identity: "streamEnd \(end.stream)", details: end.error ?? "")
      case .jump(let jump):
        return Comparable(
          identity: "jump to event \(jump.target)", details: "\(jump.stateHash)")
      case .gap(let gap):
        return Comparable(identity: "gap", details: "\(gap.droppedEvents)")
      case .end(let end):
        return Comparable(identity: "end", details: "\(end.runningEffects.count)")
      }
    }
  }
}

extension TraceChanges: CustomStringConvertible {
  /// One line: the counts, then the first divergence.
  public var description: String {
    guard let firstDivergence else { return "no change: the same events and states" }
    return "\(added) \(added == 1 ? "event" : "events") added, \(removed) removed, "
      + "\(changed) changed; first: \(firstDivergence)"
  }
}
