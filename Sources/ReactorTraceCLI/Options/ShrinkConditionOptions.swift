import ArgumentParser
import ReactorShrinking

/// The condition of `shrink` (and of its workers): what the run must still make happen.
struct ShrinkConditionOptions: ParsableArguments, Sendable {
  /// State parts.
  @Option(
    name: .customLong("until-state"),
    help: """
      Fields the state must hold, as explore --path-to takes them: value=10 or \
      isLoading=false,value=2; for an app, after the reactor's address: edit:title=Bug, \
      list/cells.0:task.isDone=true (repeatable: all at once).
      """)
  var states: [String] = []

  /// The invariant part.
  @Flag(name: .customLong("until-invariant"), help: "A registered invariant must break.")
  var invariant = false

  /// The trap part.
  @Flag(name: .customLong("until-trap"), help: "The reactor's own code must trap.")
  var trap = false

  /// Creates the options; ArgumentParser fills them in.
  init() {}

  /// Checks that a condition is given (whether its parts read is the command's to say, with
  /// exit code 2).
  func validate() throws {
    guard !states.isEmpty || invariant || trap else {
      throw ValidationError(
        "Give a condition: --until-state PATH=VALUE, --until-invariant or --until-trap.")
    }
    if trap, !states.isEmpty || invariant {
      throw ValidationError(
        "--until-trap goes alone: a trap ends the run, so no state is checked with it.")
    }
  }

  /// The condition.
  func condition() throws(ShrinkError) -> ShrinkCondition {
    ShrinkCondition(
      states: try states.map { text throws(ShrinkError) in
        try ShrinkCondition.StateTerm(parsing: text)
      },
      brokenInvariant: invariant, trap: trap)
  }

  /// The arguments that give the same condition to a worker.
  var arguments: [String] {
    states.flatMap { ["--until-state", $0] } + (invariant ? ["--until-invariant"] : [])
      + (trap ? ["--until-trap"] : [])
  }
}
