/// An effect a mutate replay with ``ReplayEffects/recorded`` played back from the recording
/// instead of running its body.
public struct PlayedEffect: Sendable, Hashable {
  /// The effect's id in the trace.
  public var effect: Int
  /// The name the code gave it, if any.
  public var name: String?
  /// Whether it was already running when the trace starts (a flight recorder's window), so
  /// that no action of the trace started it and whether today's code would cancel it is not
  /// checked.
  public var isCarriedOver: Bool
  /// In a whole session replayed, the id of the reactor that started it; `nil` for a trace
  /// of one reactor.
  public var reactor: Int?

  /// A played effect.
  /// - Parameters:
  ///   - effect: The effect's id in the trace (in its reactor, for a session).
  ///   - name: The name the code gave it.
  ///   - isCarriedOver: Whether it was already running when the trace starts.
  ///   - reactor: The reactor's id in a session.
  public init(effect: Int, name: String?, isCarriedOver: Bool, reactor: Int? = nil) {
    self.effect = effect
    self.name = name
    self.isCarriedOver = isCarriedOver
    self.reactor = reactor
  }
}

extension PlayedEffect: CustomStringConvertible {
  /// `effect 3 (search)`, with `, already running` for a carried-over effect, and
  /// `reactor 2 effect 1 (save)` in a session.
  public var description: String {
    var text = (reactor.map { "reactor \($0) " } ?? "") + "effect \(effect)"
    var notes: [String] = []
    if let name { notes.append(name) }
    if isCarriedOver { notes.append("already running") }
    if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
    return text
  }
}
