import ReactorJSON

extension TraceHeader.State {
  /// The hash a trace records for this state: FNV-1a of its canonical JSON, or of the
  /// description's UTF-8 bytes.
  public var hash: TraceHash {
    switch self {
    case .json(let json): json.canonicalHash
    case .description(let description): TraceHash(of: description.utf8)
    }
  }

  /// Turns this state into the one a mutation event stored: its snapshot, its description, or
  /// this state with its diff applied.
  ///
  /// Readers rebuild every state with it, then compare ``hash`` with the recorded one.
  /// - Throws: Why the change does not fit: a diff after a described state, or an operation
  ///   that does not apply.
  public mutating func apply(_ change: TraceEvent.StateChange) throws(TraceFormatError) {
    switch change {
    case .snapshot(let state):
      self = .json(state)
    case .description(let description):
      self = .description(description)
    case .diff(let operations):
      guard case .json(var state) = self else {
        throw TraceFormatError(
          "a diff needs a previous state, but the state before it is not JSON")
      }
      self = .description("")  // Lets `state` be changed in place.
      do throws(TraceFormatError) {
        for operation in operations { try state.apply(operation) }
      } catch {
        throw TraceFormatError("the diff does not apply: \(error)")
      }
      self = .json(state)
    }
  }
}
