/// Why a timeline cannot be drawn as asked.
public enum TimelineDiagramError: Error, Sendable, Hashable {
  /// A page would hold more events than `limit` allows.
  case tooLarge(events: Int, eventsPerPage: Int?, limit: TimelineSizeLimit)
}

extension TimelineDiagramError: CustomStringConvertible {
  /// One line that says what went wrong and what to do about it.
  public var description: String {
    switch self {
    case .tooLarge(let events, let eventsPerPage?, let limit):
      "pages of \(eventsPerPage) events are more than the \(limit.maximumEventsPerPage) a "
        + "timeline page may hold (the timeline has \(events)); use "
        + "--page-size \(limit.maximumEventsPerPage) or less"
    case .tooLarge(let events, nil, let limit):
      "the timeline has \(events) events, more than the \(limit.maximumEventsPerPage) one "
        + "page may hold; split it with --page-size \(limit.maximumEventsPerPage) or draw a "
        + "window with --from/--to"
    }
  }
}
