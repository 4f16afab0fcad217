import ReactorJSON
import ReactorSchema

/// A reactor entering a session: the `reactor` event that every later event of that reactor
/// refers to by its id.
///
/// ```json
/// {"seq":9,"t":0,"kind":"reactor","reactor":3,"type":"TaskApp.TaskCellReactor",
///  "name":"cell","parent":1,"during":8,"schema":{…},"initialState":{…},
///  "initialStateHash":"…"}
/// ```
///
/// It holds what a ``TraceHeader`` holds for a trace of one reactor (type, schema, initial
/// state), and where the reactor comes from: the reactor that created it (`parent`) and the
/// event of the session during which it was created (`during`).
public struct ReactorIntroduction: Hashable, Sendable {
  /// The reactor's id in the session, from 1; never reused, even after it is released.
  public var reactor: Int
  /// The reactor's type, module-qualified: `TaskApp.TaskListReactor`.
  public var type: String
  /// The name the app or a session factory gave it (`list`, `edit`), by which scripts
  /// address it; `nil` when it has none.
  public var name: String?
  /// The shapes of its Action, Mutation and State types.
  public var schema: TraceSchema
  /// Its state when it was introduced.
  public var initialState: TraceHeader.State
  /// The hash of ``initialState``.
  public var initialStateHash: TraceHash
  /// The id of the reactor that created it (in its `mutate`, `reduce`, an effect or an
  /// observer), or `nil` for one the app created outside any reactor.
  public var parent: Int?
  /// The `seq` of the parent's latest event when this reactor entered the session (the
  /// parent's action or mutation during which it was created; for a reactor created in the
  /// parent's `reduce`, the parent's event before that mutation), or `nil`.
  public var createdDuring: Int?

  /// An introduction.
  public init(
    reactor: Int, type: String, name: String? = nil, schema: TraceSchema,
    initialState: TraceHeader.State, initialStateHash: TraceHash, parent: Int? = nil,
    createdDuring: Int? = nil
  ) {
    self.reactor = reactor
    self.type = type
    self.name = name
    self.schema = schema
    self.initialState = initialState
    self.initialStateHash = initialStateHash
    self.parent = parent
    self.createdDuring = createdDuring
  }

  /// The introduction of the reactor of a trace of one reactor, which a session calls
  /// reactor 1.
  /// - Parameter header: The trace's header.
  public init(_ header: TraceHeader) {
    self.init(
      reactor: 1, type: header.reactor, schema: header.schema,
      initialState: header.initialState, initialStateHash: header.initialStateHash)
  }

  /// The reactor's type without its module, as views name it: `TaskListReactor` for
  /// `TaskApp.TaskListReactor` (``shortTypeName(_:)``).
  public var shortType: String { Self.shortTypeName(type) }

  /// A module-qualified type name without its module and enclosing types: the part after the
  /// last dot before any generic arguments, which are kept as they are
  /// (`TaskApp.TaskListReactor` → `TaskListReactor`, `App.Box<App.Item>` → `Box<App.Item>`).
  /// - Parameter type: A type name as a trace records it.
  /// - Returns: The name without its qualification, or `type` itself when it has none or
  ///   nothing follows its last dot.
  public static func shortTypeName(_ type: String) -> String {
    let end = type.firstIndex(of: "<") ?? type.endIndex
    guard let dot = type[..<end].lastIndex(of: "."), type.index(after: dot) < type.endIndex
    else { return type }
    return String(type[type.index(after: dot)...])
  }

  /// The header of a trace of this reactor alone, as its lane of `session` reads.
  /// - Parameter session: The session's header.
  /// - Returns: A header with this reactor's type, schema and initial state, and the
  ///   session's clock, recorder, metadata and redactions.
  public func traceHeader(in session: SessionHeader) -> TraceHeader {
    TraceHeader(
      version: session.version.major == 1 ? session.version : TraceHeader.currentVersion,
      reactor: type, recorder: session.recorder, clock: session.clock, schema: schema,
      initialState: initialState, initialStateHash: initialStateHash,
      metadata: session.metadata, redactions: session.redactions, window: session.window)
  }
}
