/// Why a sequence diagram cannot be drawn as asked.
public enum SequenceDiagramError: Error, Sendable, Hashable {
  /// A page would hold more events than `limit` allows.
  case tooLarge(events: Int, eventsPerPage: Int?, limit: TimelineSizeLimit)
}

extension SequenceDiagramError: CustomStringConvertible {
  /// One line that says what went wrong and what to do about it.
  public var description: String {
    switch self {
    case .tooLarge(let events, let eventsPerPage?, let limit):
      "pages of \(eventsPerPage) events are more than the \(limit.maximumEventsPerPage) a "
        + "sequence diagram page may hold (the diagram has \(events)); use "
        + "--page-size \(limit.maximumEventsPerPage) or less"
    case .tooLarge(let events, nil, let limit):
      "the sequence diagram has \(events) events, more than the "
        + "\(limit.maximumEventsPerPage) one page may hold; split it with --page-size "
        + "\(limit.maximumEventsPerPage) or draw a window with --from/--to"
    }
  }
}
