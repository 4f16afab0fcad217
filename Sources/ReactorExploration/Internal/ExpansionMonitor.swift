import ReactorCore

/// Keeps the mutations and states of one action's run.
@MainActor
final class ExpansionMonitor<Action: Sendable, Mutation: Sendable, State: Sendable>:
  ReactorMonitor
{
  var reductions: [(Mutation, State)] = []

  func reactorDidReceive(action: Action, id: Int, origin: Origin) {}
  func reactorDidStartEffect(_ effect: Int, action: Int, name: String?) {}
  func reactorDidEndEffect(_ effect: Int, outcome: EffectOutcome) {}
  func reactorDidReduce(mutation: Mutation, id: Int, origin: Origin, state: State) {
    reductions.append((mutation, state))
  }
  func reactorStreamDidEnd(_ name: String, error: String?) {}
}
