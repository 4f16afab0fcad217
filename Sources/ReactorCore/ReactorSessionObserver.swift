/// Told about every reactor whose pipeline starts while it is installed: how a session
/// recorder records a whole app with one line.
///
/// Install one with ``ReactorSessionObserver/install()``; the runtime calls
/// ``reactorWillStart(_:createdBy:)`` once per reactor, when its pipeline is built (on
/// first `send` or `state`), before the reactor handles anything. Reactors created before it
/// was installed and reactors that are never used are not reported.
@MainActor
public protocol ReactorSessionObserver: AnyObject {
  /// A reactor's pipeline is about to be built.
  /// - Parameters:
  ///   - reactor: The reactor.
  ///   - parent: The session id of the recorded reactor whose code ran when the reactor was
  ///     created (in its `mutate`, `reduce`, an observer or an effect), or `nil` for a
  ///     reactor the app created outside every recorded reactor.
  func reactorWillStart<R: Reactor>(_ reactor: R, createdBy parent: Int?)
}

extension ReactorSessionObserver {
  /// Makes `self` the observer of every reactor started from now on, replacing any other.
  public func install() {
    ReactorSessionObservation.observer = self
  }

  /// Stops observing, if `self` is the installed observer.
  public func uninstall() {
    if ReactorSessionObservation.observer === self { ReactorSessionObservation.observer = nil }
  }
}

/// The installed ``ReactorSessionObserver``.
@MainActor
@usableFromInline
enum ReactorSessionObservation {
  /// The observer, held weakly: installing it does not keep a recorder alive.
  @usableFromInline static weak var observer: (any ReactorSessionObserver)?
}
