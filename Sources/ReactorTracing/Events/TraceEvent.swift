import ReactorJSON

/// One line of a trace after its header: an action, an effect starting or ending, a mutation
/// with the state it produced, an external stream ending, or the end of the recording.
///
/// Every event has a ``sequence`` number, consecutive across all kinds and starting at 1, and
/// the ``time`` since the recording began. Events appear in the order they happened on the
/// reactor's actor; in particular mutations appear in the order `reduce` applied them, so a
/// trace is the ground truth for replay.
public struct TraceEvent: Hashable, Sendable {
  /// The event's position in the recording, from 1, consecutive across all kinds.
  public var sequence: Int
  /// The time since the recording began, on the recorder's clock.
  public var time: Duration
  /// What happened.
  public var kind: Kind

  /// An event.
  public init(sequence: Int, time: Duration, kind: Kind) {
    self.sequence = sequence
    self.time = time
    self.kind = kind
  }

  /// What an event records.
  public enum Kind: Hashable, Sendable {
    /// An action reached `mutate(action:)`.
    case action(Action)
    /// An async effect started.
    case effectStarted(EffectStart)
    /// An async effect ended.
    case effectEnded(EffectEnd)
    /// `reduce` applied a mutation.
    case mutation(Mutation)
    /// An external stream merged in a `transform` hook ended.
    case streamEnded(StreamEnd)
    /// The reactor's state was set to a recorded one from outside the app (a live
    /// recording's control, issue 43): later events run from it. Since format 1.4 and 2.2.
    case jump(Jump)
    /// The recorder dropped events here to stay within its memory budget
    /// (``TraceOverflowPolicy/drop``): the trace is incomplete from this point on.
    case gap(Gap)
    /// The recording was closed; nothing follows.
    case end(End)
  }

  /// An action that reached `mutate(action:)`, after `transform(action:)`.
  public struct Action: Hashable, Sendable {
    /// The action's id in this reactor: 1 for the first action, and so on.
    public var id: Int
    /// A readable case label: `increase`, `setLoading(true)`.
    public var label: String
    /// The Codable encoding, or `nil` when the Action type is not Codable.
    public var value: JSONValue?
    /// Where it came from.
    public var source: Source
    /// In a session, the reactor, action and effect that were running when another reactor
    /// sent it, or sent the stream element it was made from; `nil` for an action the user sent
    /// and in a trace of one reactor.
    public var from: ReactorOrigin?

    /// Who sent it from outside the app, if anyone.
    ///
    /// Through a live recording's control (issue 43): `"page"` (the live inspector) or
    /// `"client"` (`reactor-trace send`); `nil` for an action the app sent itself. Such an
    /// action's `source` is `sent`, so that a reader that ignores the member reads it as a
    /// sent action.
    public var external: String?

    /// An action event.
    /// - Parameters:
    ///   - id: The reactor's action id.
    ///   - label: The action's case.
    ///   - value: Its value as JSON, if encodable.
    ///   - source: Where it came from.
    ///   - from: In a session, the reactor whose activity sent it.
    ///   - external: Who sent it from outside the app, if anyone.
    public init(
      id: Int, label: String, value: JSONValue?, source: Source, from: ReactorOrigin? = nil,
      external: String? = nil
    ) {
      self.id = id
      self.label = label
      self.value = value
      self.source = source
      self.from = from
      self.external = external
    }
  }

  /// Where an action came from.
  public enum Source: Hashable, Sendable {
    /// Sent with `send(_:)`.
    case sent
    /// An element of the named stream merged in `transform(action:)`.
    case stream(String)
  }

  /// The start of an async effect.
  public struct EffectStart: Hashable, Sendable {
    /// The effect's id in this reactor, from 1.
    public var effect: Int
    /// The id of the action whose `mutate` started it.
    public var action: Int
    /// The name given to `Effect.run`, if any.
    public var name: String?
    /// The `id` given to `Effect.run`, as its description (`search`), when the recording
    /// records effect ids (``TraceOptions/recordsEffectIDs``, format 1.3): what
    /// `Effect.cancel(id:)` and `cancelInFlight` match.
    public var cancelID: String?
    /// Whether it was started with `cancelInFlight` (recorded with effect ids only).
    public var cancelsInFlight: Bool

    /// An effect-start event.
    /// - Parameters:
    ///   - effect: The effect's id.
    ///   - action: The id of the action whose `mutate` started it.
    ///   - name: The name given to `Effect.run`.
    ///   - cancelID: The description of the `id` given to `Effect.run`.
    ///   - cancelsInFlight: Whether it was started with `cancelInFlight`.
    public init(
      effect: Int, action: Int, name: String?, cancelID: String? = nil,
      cancelsInFlight: Bool = false
    ) {
      self.effect = effect
      self.action = action
      self.name = name
      self.cancelID = cancelID
      self.cancelsInFlight = cancelsInFlight
    }
  }

  /// The end of an async effect.
  public struct EffectEnd: Hashable, Sendable {
    /// The effect's id.
    public var effect: Int
    /// How it ended.
    public var outcome: Outcome

    /// An effect-end event.
    public init(effect: Int, outcome: Outcome) {
      self.effect = effect
      self.outcome = outcome
    }
  }

  /// How an async effect ended.
  public enum Outcome: Hashable, Sendable {
    /// Its body returned.
    case finished
    /// It was cancelled: by id, by `cancelInFlight`, or because the reactor went away.
    case cancelled
    /// Its body threw; the error's description.
    case failed(String)
  }

  /// A mutation that `reduce` applied, with the state it returned.
  public struct Mutation: Hashable, Sendable {
    /// The mutation's id in this reactor, from 1.
    public var id: Int
    /// A readable case label: `setLoading(true)`.
    public var label: String
    /// The Codable encoding, or `nil` when the Mutation type is not Codable.
    public var value: JSONValue?
    /// What emitted it.
    public var cause: Cause
    /// The state `reduce` returned, as stored: a full snapshot, a diff from the previous
    /// state, or a description when the State type is not Codable.
    public var state: StateChange
    /// The hash of the resulting state's canonical JSON (of its description when the State
    /// type is not Codable).
    public var stateHash: TraceHash
    /// In a session, for a mutation made from a stream element: the reactor, action and
    /// effect that were running when the element was published (`cause.from` in the file);
    /// `nil` otherwise.
    public var from: ReactorOrigin?
    /// For a mutation made from a stream element that this reactor's own action or effect
    /// published: that action and effect (`cause.publishedBy` in the file); `nil` otherwise,
    /// and when the recorder did not know.
    public var publisher: Publisher?

    /// A mutation event.
    public init(
      id: Int, label: String, value: JSONValue?, cause: Cause, state: StateChange,
      stateHash: TraceHash, from: ReactorOrigin? = nil, publisher: Publisher? = nil
    ) {
      self.id = id
      self.label = label
      self.value = value
      self.cause = cause
      self.state = state
      self.stateHash = stateHash
      self.from = from
      self.publisher = publisher
    }
  }

  /// What emitted a mutation.
  public enum Cause: Hashable, Sendable {
    /// `mutate(action:)` returned it synchronously for the action with this id.
    case action(Int)
    /// The async effect with this id, started by the action with this id, sent it.
    case effect(Int, action: Int)
    /// An element of the named stream merged in `transform(mutation:)`.
    case stream(String)

    /// The action behind the mutation, if any.
    public var action: Int? {
      switch self {
      case .action(let action), .effect(_, let action): action
      case .stream: nil
      }
    }
  }

  /// How a mutation event stores the resulting state.
  public enum StateChange: Hashable, Sendable {
    /// The whole state.
    case snapshot(JSONValue)
    /// Operations that turn the previous state into this one.
    case diff([TraceDiffOperation])
    /// `String(describing:)` of a state whose type is not Codable.
    case description(String)
  }

  /// The reactor's state set from outside the app to the state a recording held after one of
  /// its events (`kind: "jump"`, format 1.4 and 2.2): "jump to the state after event N".
  ///
  /// The state is stored whole, never as a diff, and the recorder stores the next mutation's
  /// state whole too, so that a reader of an older version, which skips the unknown kind,
  /// still rebuilds every state after it.
  public struct Jump: Hashable, Sendable {
    /// The `seq` of the event whose recorded state the reactor jumped to (in the recording
    /// the command named, usually this one).
    public var target: Int
    /// Who asked for it: `"page"` (the live inspector) or `"client"` (`reactor-trace send`).
    public var external: String?
    /// The state the reactor now holds, whole: its JSON, or its description.
    public var state: TraceHeader.State
    /// The state's hash.
    public var stateHash: TraceHash

    /// A jump event.
    /// - Parameters:
    ///   - target: The `seq` of the event whose state it is.
    ///   - external: Who asked for it.
    ///   - state: The state, whole.
    ///   - stateHash: Its hash.
    public init(target: Int, external: String?, state: TraceHeader.State, stateHash: TraceHash) {
      self.target = target
      self.external = external
      self.state = state
      self.stateHash = stateHash
    }

    /// The state as a mutation's stored state change: a snapshot, or a description.
    public var stateChange: StateChange {
      switch state {
      case .json(let json): .snapshot(json)
      case .description(let description): .description(description)
      }
    }
  }

  /// The end of an external stream merged in a `transform` hook.
  public struct StreamEnd: Hashable, Sendable {
    /// The stream's name.
    public var stream: String
    /// The description of the error it threw, or `nil` if it finished.
    public var error: String?

    /// A stream-end event.
    public init(stream: String, error: String?) {
      self.stream = stream
      self.error = error
    }
  }

  /// Events a recorder dropped, rather than wait, because its queue was over its byte budget.
  ///
  /// The events between the one before the gap and the one after it are missing: sequence
  /// numbers stay consecutive (dropped events take none), the next state is still stored
  /// against the last recorded one, but the mutations in between and their actions are lost.
  /// Replays and diagrams treat the trace as incomplete from here, never as a divergence.
  public struct Gap: Hashable, Sendable {
    /// How many events were dropped in a row at this point.
    public var droppedEvents: Int

    /// A gap event.
    public init(droppedEvents: Int) {
      self.droppedEvents = droppedEvents
    }
  }

  /// The recording was closed.
  public struct End: Hashable, Sendable {
    /// How many events the recording saw, including dropped ones.
    public var observedEvents: Int
    /// How many of them a limit or a full queue (the sum of the ``Gap``s) left out of the
    /// trace.
    public var droppedEvents: Int
    /// The effects still running when the recording stopped, in the order they started:
    /// the run was not finished (trace format 1.1; empty in older traces).
    public var runningEffects: [EffectStart]

    /// An end event.
    public init(observedEvents: Int, droppedEvents: Int, runningEffects: [EffectStart] = []) {
      self.observedEvents = observedEvents
      self.droppedEvents = droppedEvents
      self.runningEffects = runningEffects
    }
  }
}
