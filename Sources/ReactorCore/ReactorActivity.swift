/// What a reactor of a recorded session is doing.
///
/// It names the reactor, the action it handles and the async effect of that action that
/// runs: the origin a session records for what one reactor causes in another.
///
/// The runtime of a reactor that a session recorder records (``ReactorRuntime/sessionID``
/// set) keeps it up to date: synchronously around `mutate`, `reduce` and the state observers,
/// and inside effect bodies across `await` (a task-local, inherited by child tasks). An
/// action sent to another reactor and an element accepted on a ``Relay`` (and so any ``Flow``
/// derived from it) carry the activity that was ``current`` then, and the receiving reactor's
/// recorder writes it as `from`.
///
/// A service built on something other than a relay (a callback list, an `AsyncStream`, a
/// Combine subject) carries the origin by hand: capture ``current`` when the work is accepted,
/// and deliver the result inside ``delivering(_:_:)``:
///
/// ```swift
/// func save(_ task: TaskItem) {
///   let origin = ReactorActivity.current
///   Task { @MainActor in
///     let saved = try await api.save(task)
///     ReactorActivity.delivering(origin) { listeners.forEach { $0(.saved(saved)) } }
///   }
/// }
/// ```
///
/// A recorder of one reactor keeps it up to date too (``ReactorRuntime/tracksOwnActivity``),
/// so that it can tell an element the reactor published itself from one an outside source
/// published. Such a reactor's id is below 1 (``ReactorRuntime/activityID``): no session
/// records it.
///
/// Reactors that nothing records keep none of this: their runtime checks one flag.
public struct ReactorActivity: Hashable, Sendable {
  /// The reactor's id in the session (its runtime's ``ReactorRuntime/sessionID``), or, for a
  /// reactor recorded alone, its runtime's ``ReactorRuntime/activityID``, below 1.
  public var reactor: Int
  /// The id of the action it handles, in that reactor; `nil` outside any action (a stream's
  /// mutation).
  public var action: Int?
  /// The id of the async effect of that action that runs, if any.
  public var effect: Int?

  /// An activity.
  /// - Parameters:
  ///   - reactor: The reactor's id in the session.
  ///   - action: The action it handles.
  ///   - effect: The async effect of that action that runs.
  public init(reactor: Int, action: Int? = nil, effect: Int? = nil) {
    self.reactor = reactor
    self.action = action
    self.effect = effect
  }

  // The three below are read and written around every action and mutation of a recorded
  // reactor, on the main actor only, each access instantaneous (`whileRunning` reads, then
  // writes; `body` runs between): no dynamic exclusivity checks (a thread-local access set
  // per access, about a tenth of a recorded event's cost on the main thread).

  /// What a recorded reactor runs synchronously now on the main actor, if anything.
  @MainActor @usableFromInline @exclusivity(unchecked) static var running: ReactorActivity?

  /// The session id of the recorded reactor whose code runs synchronously now.
  ///
  /// Unlike ``running`` it is never another reactor's activity (a stream's mutation runs as
  /// the activity of the element's publisher).
  @MainActor @usableFromInline @exclusivity(unchecked) static var runningReactor: Int?

  /// The origin of the value being delivered into a reactor now: an element a relay
  /// accepted, an action another reactor sent.
  @MainActor @usableFromInline @exclusivity(unchecked) static var delivered: ReactorActivity?

  /// What runs now: the `mutate`, `reduce` or observer of a recorded reactor on the main
  /// actor, or else the effect body of the current task; `nil` outside every recorded
  /// reactor (a user's tap, a timer, a test).
  @MainActor @inlinable public static var current: ReactorActivity? {
    running ?? effectActivity
  }

  /// The activity of the effect body running in the current task, bound across `await`
  /// (``EffectActivityLocal``): read only when no recorded reactor's code runs synchronously
  /// now.
  @MainActor @inlinable static var effectActivity: ReactorActivity? {
    EffectActivityLocal.value
  }

  /// The session id of the recorded reactor whose code runs now.
  ///
  /// That code is its `mutate`, `reduce` or an observer on the main actor, or else the
  /// effect body of the current task. A reactor created now is a child of it. A reactor
  /// recorded alone, outside every session, is not one: its code gives `nil`.
  @MainActor public static var currentReactor: Int? {
    guard let reactor = runningReactor ?? effectActivity?.reactor, reactor > 0 else { return nil }
    return reactor
  }

  /// The last id handed to a runtime that tracks its own activity outside a session.
  @MainActor private static var lastLocalID = 0

  /// A new id below 1 for a reactor recorded alone: no session id (they start at 1) and no
  /// other such reactor's id is the same.
  @MainActor static func nextLocalID() -> Int {
    lastLocalID -= 1
    return lastLocalID
  }

  /// Runs `body` as the delivery of values that `origin` caused: what a reactor receives
  /// meanwhile records `origin` as its `from`.
  ///
  /// ``Relay/accept(_:)`` does this with ``current``; services that deliver some other way
  /// call it with the activity they captured when the work was accepted.
  /// - Parameters:
  ///   - origin: The activity that caused the values, or `nil` for an external source.
  ///   - body: Delivers the values.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @MainActor public static func delivering<T, Failure: Error>(
    _ origin: ReactorActivity?, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    let outer = delivered
    delivered = origin
    defer { delivered = outer }
    return try body()
  }

  /// What ran before ``enter(_:in:)``, for ``restore(_:)``.
  @usableFromInline struct Outer {
    @usableFromInline let activity: ReactorActivity?
    @usableFromInline let reactor: Int?

    @inlinable init(activity: ReactorActivity?, reactor: Int?) {
      self.activity = activity
      self.reactor = reactor
    }
  }

  /// Sets `activity` running as the code of reactor `reactor`, and returns what ran before.
  ///
  /// With ``restore(_:)``, what ``whileRunning(_:in:_:)`` does around a closure, for code
  /// that must not form one (a closure that captures a reactor retains it, on the slow path).
  @MainActor @inlinable static func enter(_ activity: ReactorActivity?, in reactor: Int?) -> Outer {
    let outer = Outer(activity: running, reactor: runningReactor)
    running = activity
    runningReactor = reactor
    return outer
  }

  /// Restores what ran before the ``enter(_:in:)`` that returned `outer`.
  @MainActor @inlinable static func restore(_ outer: Outer) {
    running = outer.activity
    runningReactor = outer.reactor
  }

  /// Runs `body` as the code of reactor `reactor` with `activity` running, restoring what
  /// ran before.
  @MainActor @inlinable @discardableResult static func whileRunning<T>(
    _ activity: ReactorActivity?, in reactor: Int, _ body: () -> T
  ) -> T {
    let outer = enter(activity, in: reactor)
    defer { restore(outer) }
    return body()
  }

  /// Runs `body` as the code `activity` names (its reactor's `mutate`, or the effect of it
  /// that runs), or, for `nil`, as code outside every reactor: how a replay makes a recorded
  /// value (decodes a mutation) where the recording's code made it, so that a reactor created
  /// meanwhile (a Codable cell reactor the mutation holds) gets the same creator.
  /// - Parameters:
  ///   - activity: What runs; its reactor is the creator of reactors made in `body`.
  ///   - body: Makes the value.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @MainActor public static func making<T, Failure: Error>(
    as activity: ReactorActivity?, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    let outer = enter(activity, in: activity?.reactor)
    defer { restore(outer) }
    // An effect body's own activity does not show through.
    let result = EffectActivityLocal.forBinding.withValue(nil) {
      Result { () throws(Failure) -> T in try body() }
    }
    return try result.get()
  }
}
