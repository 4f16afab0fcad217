/// The lanes of a file's reactors, each opened as a trace of one reactor: what a tool for one
/// reactor's trace reads of a session, and of a trace, which is a session of one lane.
///
/// A trace's one lane is the file itself, streamed from disk each time it is opened; a
/// session file's lanes are split from it in one pass, as ``SessionTrace/lane(of:)`` cuts
/// them, and kept in a temporary file past a memory limit, in the order their reactors
/// entered it.
///
/// ```swift
/// let file = try ReactorLanes(path: "taskapp.session.jsonl")
/// for lane in file.lanes {
///   let reader = try lane.open()
///   print(lane.reactor.shortType, reader.header.initialState)
/// }
/// ```
public struct ReactorLanes: Sendable {
  /// One reactor's lane.
  public struct Lane: Sendable {
    /// The reactor, as the file introduced it.
    public var reactor: ReactorIntroduction

    /// Opens a new reader of the lane, verifying states, that has read no event yet.
    public var open: @Sendable () throws(TraceReadError) -> TraceReader
  }

  /// The file's path, or the name given to a session in memory.
  public let path: String

  /// Every reactor's lane, in the order they entered the file.
  public let lanes: [Lane]

  /// The reactor types the file holds, module-qualified, in the order they entered it.
  public var types: [String] {
    var seen: Set<String> = []
    return lanes.map(\.reactor.type).filter { seen.insert($0).inserted }
  }

  /// Reads the lanes of a trace or a session file.
  ///
  /// - Parameter path: A trace of one reactor, or a session.
  /// - Throws: ``TraceReadError`` when the file cannot be read.
  public init(path: String) throws(TraceReadError) {
    try self.init(path: path, memoryLimit: SpillStore.defaultMemoryLimit)
  }

  /// Reads the lanes of a trace or a session file, keeping at most `memoryLimit` bytes of a
  /// session's lanes in memory.
  package init(path: String, memoryLimit: Int) throws(TraceReadError) {
    let reader = try SessionReader(path: path, verifyingStates: false)
    guard reader.header.isTraceOfOneReactor,
      case .introduced(let introduction)? = try reader.next()?.kind
    else {
      let split = try SessionLanes(path: path, memoryLimit: memoryLimit)
      self.init(
        path: path,
        lanes: split.reactors.map { introduction in
          Lane(
            reactor: introduction,
            open: { () throws(TraceReadError) in
              try split.reader(of: introduction.reactor, name: introduction.type)
            })
        })
      return
    }
    self.init(
      path: path,
      lanes: [
        Lane(
          reactor: introduction, open: { () throws(TraceReadError) in try TraceReader(path: path) })
      ])
  }

  /// The lanes of a session held in memory.
  ///
  /// - Parameters:
  ///   - session: The session.
  ///   - name: What errors and ``path`` call it.
  public init(session: SessionTrace, name: String = "session") {
    let lanes: [Lane] = session.reactors.compactMap { introduction in
      guard let lane = session.lane(of: introduction.reactor) else { return nil }
      let bytes = lane.serialized
      return Lane(
        reactor: introduction,
        open: { () throws(TraceReadError) in try TraceReader(bytes: bytes, name: introduction.type)
        })
    }
    self.init(path: name, lanes: lanes)
  }

  private init(path: String, lanes: [Lane]) {
    self.path = path
    self.lanes = lanes
  }
}
