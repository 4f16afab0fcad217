public import ReactorExploration
public import ReactorScript
public import ReactorTracing

/// What a shrunk run must still make happen: states reached, a registered invariant broken,
/// the reactor's code trapping — every part given, at one point of the run.
///
/// A state part is written in the grammar of `explore --path-to` (``StateCondition``), for
/// an app after the address of the reactor it is about, as app scripts write addresses
/// (``ReactorScript/ReactorAddress``): `value=10`, `edit:title=Bug`,
/// `list/cells.0:task.isDone=true`. Several state parts must hold at the same moment; an
/// invariant part holds while some reactor's recorded state breaks one of its type's
/// invariants; a trap part holds when the run ends in a trap (after the other parts held).
public struct ShrinkCondition: Sendable, Hashable, CustomStringConvertible {
  /// One state part: a reactor (by address, for an app) and the fields its state must hold.
  public struct StateTerm: Sendable, Hashable, CustomStringConvertible {
    /// The reactor, in an app's run; `nil` for the one reactor of a reactor's run.
    public var address: ReactorAddress?
    /// The fields and their values.
    public var condition: StateCondition

    /// A state part.
    public init(address: ReactorAddress?, condition: StateCondition) {
      self.address = address
      self.condition = condition
    }

    /// Reads `value=10` or, with an address, `list/cells.0:task.isDone=true`: the address is
    /// what comes before the first `:` outside brackets.
    /// - Throws: ``ShrinkError/malformedCondition(_:reason:)``.
    public init(parsing text: String) throws(ShrinkError) {
      var depth = 0
      var colon: String.Index?
      for index in text.indices {
        switch text[index] {
        case "[": depth += 1
        case "]": depth -= 1
        case ":" where depth == 0 && colon == nil: colon = index
        case "=" where depth == 0 && colon == nil:
          // A path=value before any colon: no address (a value may hold colons).
          colon = text.endIndex
        default: break
        }
        if colon != nil { break }
      }
      var address: ReactorAddress?
      var rest = text
      if let colon, colon != text.endIndex {
        let written = String(text[..<colon])
        do {
          address = try ReactorAddress(parsing: written)
        } catch {
          throw .malformedCondition(text, reason: error.description)
        }
        rest = String(text[text.index(after: colon)...])
      }
      do {
        self.init(address: address, condition: try StateCondition(parsing: rest))
      } catch {
        throw .malformedCondition(text, reason: error.description)
      }
    }

    /// As written: `list/cells.0:task.isDone=true`.
    public var description: String {
      (address.map { "\($0):" } ?? "") + condition.description
    }
  }

  /// The state parts; all hold at one moment.
  public var states: [StateTerm]
  /// Whether a registered invariant must be broken at that moment.
  public var brokenInvariant: Bool
  /// Whether the run must end in a trap of the reactor's code.
  public var trap: Bool

  /// A condition; at least one part must be given.
  public init(states: [StateTerm] = [], brokenInvariant: Bool = false, trap: Bool = false) {
    self.states = states
    self.brokenInvariant = brokenInvariant
    self.trap = trap
  }

  /// Whether no part is given.
  public var isEmpty: Bool { states.isEmpty && !brokenInvariant && !trap }

  /// The parts as the command line writes them:
  /// `--until-state value=10 --until-invariant`.
  public var description: String {
    (states.map { "--until-state \($0)" } + (brokenInvariant ? ["--until-invariant"] : [])
      + (trap ? ["--until-trap"] : [])).joined(separator: " ")
  }

  /// The first moment of a recorded run where the state and invariant parts all hold (the
  /// trap part is the runner's to tell): a session, or a trace read as one
  /// (`SessionTrace(trace)`).
  ///
  /// Every reactor's state is rebuilt event by event; addresses are resolved in the states
  /// recorded at that moment, as a running app's script resolves them.
  /// - Parameters:
  ///   - session: The recorded run.
  ///   - check: The name of an invariant a reactor of the given type breaks in the given
  ///     state, or `nil`; asked only when ``brokenInvariant`` is set.
  /// - Returns: The moment, or `nil` when the parts never hold together.
  public func firstMatch(
    in session: SessionTrace,
    brokenInvariant check: (_ type: String, _ state: JSONValue) -> String? = { _, _ in nil }
  ) -> ShrinkMatch? {
    firstMoment(in: session, brokenInvariant: check)?.match
  }

  /// The first moment the parts hold, with the reactors' states then and the reactor
  /// breaking an invariant (the lowest id), if one is asked for.
  func firstMoment(
    in session: SessionTrace, brokenInvariant check: (String, JSONValue) -> String?
  ) -> (match: ShrinkMatch, world: SessionStates, breaker: Int?)? {
    var world = SessionStates()
    var broken: [Int: String] = [:]
    func recheck(_ reactor: Int) {
      guard brokenInvariant else { return }
      guard let type = world.types[reactor], let state = world.states[reactor] else {
        broken[reactor] = nil
        return
      }
      broken[reactor] = check(type, state)
    }
    func holds() -> Bool {
      if brokenInvariant, broken.isEmpty { return false }
      return states.allSatisfy { term in
        let reactor = term.address.map(world.reactor(at:)) ?? world.first
        guard let reactor, let state = world.states[reactor] else { return false }
        return term.condition.matches(state)
      }
    }
    for event in session.events {
      world.apply(event)
      switch event.kind {
      case .introduced(let introduction): recheck(introduction.reactor)
      case .released(let reactor): broken[reactor] = nil
      case .reactor(let reactor, .mutation): recheck(reactor)
      default: continue
      }
      if holds() {
        let breaker = broken.keys.min()
        return (
          ShrinkMatch(
            sequence: event.sequence, time: event.time, invariant: breaker.flatMap { broken[$0] }),
          world, breaker
        )
      }
    }
    return nil
  }
}

/// The moment of a recorded run where a ``ShrinkCondition``'s parts hold.
public struct ShrinkMatch: Sendable, Hashable {
  /// The session event after which they hold.
  public var sequence: Int
  /// Its time.
  public var time: Duration
  /// The invariant broken then, when the condition asks for one.
  public var invariant: String?

  /// A moment.
  public init(sequence: Int, time: Duration, invariant: String? = nil) {
    self.sequence = sequence
    self.time = time
    self.invariant = invariant
  }
}
