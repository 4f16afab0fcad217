public import ReactorTracing

extension StateAbstraction {
  /// Reads traces once and returns rules that draw their states as a state machine: control
  /// states rather than data.
  ///
  /// Each top-level field of the state is drawn by what it holds and by how many distinct
  /// values it took across the traces: Booleans and enums as they are; any field with at
  /// most `distinctValueLimit` distinct values as its value; beyond that optionals as
  /// `nil` / `non-nil`, collections as an item count (when at most `distinctValueLimit`
  /// sizes occur) or `empty` / `non-empty`, strings as `empty` / `non-empty`, and numbers
  /// and other values not at all. A field that never changes (or whose class never changes)
  /// is left out. A `@Pulse` (a `Pulse<…>` in the schema, or an object of `value` and
  /// `valueUpdatedCount`) is an event, drawn on the transitions that fire it. A state that
  /// is not a JSON object keeps the whole state.
  ///
  /// ```swift
  /// let abstraction = try StateAbstraction.inferred(fromTracesAt: paths)
  /// let graph = try TransitionGraph(tracesAt: paths, abstraction: abstraction)
  /// ```
  ///
  /// - Parameters:
  ///   - paths: Trace files of one reactor.
  ///   - overrides: Abstractions chosen by the caller, by field name; they win.
  ///   - distinctValueLimit: The most distinct values a field may take to be drawn as is.
  /// - Returns: One rule per top-level field, in the order of the state's members.
  /// - Throws: ``TransitionGraphError/unreadableTrace(_:)`` when a trace cannot be read,
  ///   ``TransitionGraphError/unknownField(_:known:)`` when an override names no field.
  public static func inferred(
    fromTracesAt paths: [String], overrides: [String: FieldAbstraction] = [:],
    distinctValueLimit: Int = 3
  ) throws(TransitionGraphError) -> StateAbstraction {
    try inferred(
      fromTraces: paths.map { path in { try TraceReader(path: path) } },
      overrides: overrides, distinctValueLimit: distinctValueLimit)
  }

  /// Reads traces once and returns rules that draw their states as a state machine, like
  /// ``inferred(fromTracesAt:overrides:distinctValueLimit:)``, with readers opened by the
  /// caller (for traces that are not plain files, such as gzipped ones).
  ///
  /// - Parameters:
  ///   - openers: One function per trace that opens a reader verifying states; it throws
  ///     a ``TraceReadError`` when the trace cannot be read.
  ///   - overrides: Abstractions chosen by the caller, by field name; they win.
  ///   - distinctValueLimit: The most distinct values a field may take to be drawn as is.
  /// - Returns: One rule per top-level field, in the order of the state's members.
  /// - Throws: ``TransitionGraphError/unreadableTrace(_:)`` when a trace cannot be read,
  ///   ``TransitionGraphError/unknownField(_:known:)`` when an override names no field.
  public static func inferred(
    fromTraces openers: [() throws -> TraceReader],
    overrides: [String: FieldAbstraction] = [:], distinctValueLimit: Int = 3
  ) throws(TransitionGraphError) -> StateAbstraction {
    var names: [String] = []
    var statistics: [String: FieldStatistics] = [:]
    var isObject = true
    for open in openers {
      let reader = try TransitionGraphError.opening(open)
      var schemas: [String: TypeSchema] = [:]
      if case .structure(_, let fields, _)? = reader.header.schema.state.shape {
        for field in fields { schemas[field.name] = field.schema }
      }
      func noteAll(_ state: TraceHeader.State) {
        guard case .json(.object(let object)) = state else {
          isObject = false
          return
        }
        for (name, _) in object.members where statistics[name] == nil {
          names.append(name)
          statistics[name] = FieldStatistics(schema: schemas[name])
        }
        for name in names {
          statistics[name]!.note(object[name], cap: distinctValueLimit)
        }
      }
      // A field that appears later (or only in the schema) was missing until then.
      func addMissingField(_ name: String) {
        names.append(name)
        statistics[name] = FieldStatistics(schema: schemas[name])
        statistics[name]!.note(nil, cap: distinctValueLimit)
      }
      noteAll(reader.header.initialState)
      for name in schemas.keys where statistics[name] == nil {
        addMissingField(name)
      }
      do {
        while let event = try reader.next() {
          if case .jump = event.kind {
            noteAll(reader.currentState)
            continue
          }
          guard case .mutation(let mutation) = event.kind else { continue }
          guard case .diff(let operations) = mutation.state,
            case .json(.object(let object)) = reader.currentState
          else {
            noteAll(reader.currentState)
            continue
          }
          var touched: Set<String> = []
          for operation in operations {
            guard case .key(let name)? = operation.path.first else {
              touched = Set(names)
              break
            }
            touched.insert(name)
          }
          for name in touched {
            if statistics[name] == nil { addMissingField(name) }
            statistics[name]!.note(object[name], cap: distinctValueLimit)
          }
        }
      } catch {
        throw .unreadableTrace(error)
      }
    }
    for name in overrides.keys.sorted() where statistics[name] == nil {
      throw .unknownField(name, known: names.sorted())
    }
    guard isObject, !names.isEmpty else { return .wholeState }
    names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    return StateAbstraction(
      rules: names.map { name in
        if let chosen = overrides[name] {
          return FieldRule(name: name, abstraction: chosen, reason: "chosen")
        }
        return statistics[name]!.rule(for: name, limit: distinctValueLimit)
      })
  }
}
