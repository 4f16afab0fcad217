import ReactorCore
import ReactorTracing

/// The checks every replay through reactor code makes before it starts.
enum ReplayChecks {
  /// Checks that the trace was recorded from `R` (unless allowed otherwise) with a compatible
  /// schema.
  static func check<R: Reactor>(
    _ header: TraceHeader, for type: R.Type, allowingReactorMismatch: Bool
  ) throws(ReplayError) {
    let current = String(reflecting: type)
    if !allowingReactorMismatch, header.reactor != current {
      throw .reactorMismatch(recorded: header.reactor, current: current)
    }
    let schema = TraceSchema(action: R.Action.self, mutation: R.Mutation.self, state: R.State.self)
    let changes = schema.changes(from: header.schema)
    if !changes.isEmpty { throw .incompatibleSchema(changes) }
  }

  /// Reads the next event, wrapping the reader's error.
  static func next(_ reader: TraceReader) throws(ReplayError) -> TraceEvent? {
    do throws(TraceReadError) {
      return try reader.next()
    } catch {
      throw .trace(error)
    }
  }

  /// Opens a trace file.
  static func open(_ path: String, verifyingStates: Bool = true) throws(ReplayError)
    -> TraceReader
  {
    do throws(TraceReadError) {
      return try TraceReader(path: path, verifyingStates: verifyingStates)
    } catch {
      throw .trace(error)
    }
  }

  /// Opens a trace held in memory.
  static func open(_ trace: Trace, verifyingStates: Bool = true) throws(ReplayError)
    -> TraceReader
  {
    do throws(TraceReadError) {
      return try TraceReader(bytes: trace.serialized, verifyingStates: verifyingStates)
    } catch {
      throw .trace(error)
    }
  }
}
