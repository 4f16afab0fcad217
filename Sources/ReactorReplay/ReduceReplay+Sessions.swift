public import ReactorCore
public import ReactorTracing

/// Reduce replay of the reactors of a session, each through its lane.
///
/// ```swift
/// let session = try SessionTrace(contentsOf: "taskapp.session.jsonl")
/// let edit = try ReduceReplay.run(session, reactor: 2, through: TaskEditReactor(service: service))
/// for (id, result) in try ReduceReplay.runAll(session, through: { _ in TaskCellReactor(…) }) {
///   if let divergence = result.divergence { print("reactor \(id):", divergence) }
/// }
/// ```
@MainActor
extension ReduceReplay {
  /// Replays the reactor with id `id` of a session through `reactor`'s `reduce`.
  ///
  /// Its lane (``ReactorTracing/SessionTrace/lane(of:)``) replays as a trace of that reactor
  /// alone; in a trace of one reactor read as a session, the reactor is 1. Divergences name
  /// the session's `seq`.
  /// - Parameters:
  ///   - session: The session.
  ///   - id: The reactor's id in the session.
  ///   - reactor: A reactor of the recorded type, whose `reduce` to run.
  ///   - allowingReactorMismatch: Whether to replay a reactor of another type.
  /// - Returns: The number of mutations that matched and the first divergence, if any.
  /// - Throws: ``ReplayError/noSuchReactor(_:reactors:)`` when the session has no such
  ///   reactor, and what ``run(_:through:allowingReactorMismatch:willReduce:)`` throws.
  public static func run<R: Reactor>(
    _ session: SessionTrace, reactor id: Int, through reactor: R,
    allowingReactorMismatch: Bool = false
  ) throws(ReplayError) -> ReplayResult {
    guard let lane = session.lane(of: id) else {
      throw .noSuchReactor("reactor \(id)", reactors: session.reactors.map(\.reactor))
    }
    return try run(lane, through: reactor, allowingReactorMismatch: allowingReactorMismatch)
  }

  /// Replays every reactor of `R`'s type in the session, each through a reactor `make` gives
  /// for its introduction, as ``run(_:reactor:through:allowingReactorMismatch:)`` replays one.
  /// - Parameters:
  ///   - session: The session.
  ///   - make: A reactor whose `reduce` to run, for each recorded one.
  /// - Returns: Each reactor's id and result, in the order they entered the session.
  /// - Throws: ``ReplayError/noSuchReactor(_:reactors:)`` when the session has no reactor
  ///   of that type, and what ``run(_:through:allowingReactorMismatch:willReduce:)`` throws.
  public static func runAll<R: Reactor>(
    _ session: SessionTrace, through make: (ReactorIntroduction) -> R
  ) throws(ReplayError) -> [(reactor: Int, result: ReplayResult)] {
    let type = String(reflecting: R.self)
    let introductions = session.reactors.filter { $0.type == type }
    guard !introductions.isEmpty else {
      throw .noSuchReactor("reactor of type \(type)", reactors: session.reactors.map(\.reactor))
    }
    var results: [(reactor: Int, result: ReplayResult)] = []
    for introduction in introductions {
      results.append(
        (
          introduction.reactor,
          try run(session, reactor: introduction.reactor, through: make(introduction))
        ))
    }
    return results
  }
}
