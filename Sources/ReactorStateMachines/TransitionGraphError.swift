public import ReactorTracing

/// Why a ``TransitionGraph`` could not be built, filtered or drawn.
public enum TransitionGraphError: Error, Sendable, Hashable {
  /// A trace could not be read.
  case unreadableTrace(TraceReadError)

  /// A trace records another reactor than the traces before it.
  case differentReactors(expected: String, found: String, path: String)

  /// The focus of a neighbourhood filter names no state of the graph.
  case unknownState(String)

  /// A per-field override names a field that no state has.
  case unknownField(String, known: [String])

  /// The graph has more states or transitions than `limit` allows.
  case tooLarge(states: Int, transitions: Int, limit: DiagramSizeLimit)

  /// While reading, the graph grew past what any filter could make drawable; reading
  /// stopped there instead of holding every state in memory.
  case tooLargeToCollect(limit: DiagramSizeLimit)
}

extension TransitionGraphError: CustomStringConvertible {
  /// One line that says what went wrong and what to do about it.
  public var description: String {
    switch self {
    case .unreadableTrace(let error):
      return "\(error)"
    case .differentReactors(let expected, let found, let path):
      return
        "\(path) records \(found), but the traces before it record \(expected); "
        + "a transition graph merges traces of one reactor only"
    case .unknownState(let focus):
      return "no state is '\(focus)'; name a state by its id (s0, s1, ...) or its full text"
    case .unknownField(let name, let known):
      return
        "no state has a field '\(name)'; the fields are "
        + (known.isEmpty ? "none" : known.joined(separator: ", "))
    case .tooLarge(let states, let transitions, let limit):
      return
        "the transition graph has \(states) states and \(transitions) transitions, more than "
        + "the \(limit.maximumNodes) states or \(limit.maximumEdges) transitions that lay out "
        + "quickly; project states onto a few fields with --key (for example --key isLoading), "
        + "drop rare transitions with --min-count, or show one state's neighbourhood"
    case .tooLargeToCollect(let limit):
      return
        "the transition graph grew past \(limit.maximumNodes) states or \(limit.maximumEdges) "
        + "transitions while reading, far more than lay out readably; project states onto a "
        + "few fields with --key (for example --key isLoading)"
    }
  }
}

extension TransitionGraphError {
  /// Opens a trace with `open`, its failure as ``unreadableTrace(_:)``: the one way the
  /// graph's builders (the inference, the inspector's embedding) open the traces they read.
  package static func opening(
    _ open: () throws -> TraceReader
  ) throws(TransitionGraphError) -> TraceReader {
    do {
      return try open()
    } catch let error as TraceReadError {
      throw .unreadableTrace(error)
    } catch {
      throw .unreadableTrace(.readFailed(path: "trace", reason: "\(error)"))
    }
  }
}
