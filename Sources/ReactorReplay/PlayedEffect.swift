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

  /// A played effect.
  public init(effect: Int, name: String?, isCarriedOver: Bool) {
    self.effect = effect
    self.name = name
    self.isCarriedOver = isCarriedOver
  }
}

extension PlayedEffect: CustomStringConvertible {
  /// `effect 3 (search)`, with `, already running` for a carried-over effect.
  public var description: String {
    var text = "effect \(effect)"
    var notes: [String] = []
    if let name { notes.append(name) }
    if isCarriedOver { notes.append("already running") }
    if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
    return text
  }
}
